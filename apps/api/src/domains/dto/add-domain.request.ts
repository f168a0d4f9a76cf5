import { DeliverabilityRequest } from '../../deliverability/dto/deliverability.request';

/** Same fields and rules as an on-demand audit: the domain to watch and extra DKIM selectors. */
export class AddDomainRequest extends DeliverabilityRequest {}
