import { RecentItemsQuery } from '../../common/recent-items.query';

/** `?limit=`: the most recent audits and drift events to return. */
export class DomainHistoryQuery extends RecentItemsQuery {}
