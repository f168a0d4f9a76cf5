import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';
import { MonitoredDomainEntity } from '../entities/monitored-domain.entity';

export type AddMonitoredDomainResult =
  { status: 'created'; domain: MonitoredDomainEntity } | { status: 'duplicate'; domain: MonitoredDomainEntity } | { status: 'limit_reached'; limit: number };

export interface SweepDomain {
  id: string;
  accountId: string;
  domain: string;
  dkimSelectors: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class MonitoredDomainRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds a domain unless the account already watches it or is at its limit. The account row is
   * locked for the duration, so two concurrent adds cannot both slip under the limit.
   */
  async add(accountId: string, domain: string, dkimSelectors: string[], limit: number): Promise<AddMonitoredDomainResult> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const repository = manager.getRepository(MonitoredDomainEntity);
      const existing = await repository.findOneBy({ accountId, domain });
      if (existing) return { status: 'duplicate', domain: existing };
      const count = await repository.countBy({ accountId });
      if (count >= limit) return { status: 'limit_reached', limit };
      const created = await repository.save(
        repository.create({
          accountId,
          domain,
          dkimSelectors,
          status: 'pending',
          statusReason: null,
          score: null,
          lastCheckedAt: null,
          lastResult: null,
          lastDrift: null,
        }),
      );
      return { status: 'created', domain: created };
    });
  }

  listForAccount(accountId: string): Promise<MonitoredDomainEntity[]> {
    return this.dataSource.getRepository(MonitoredDomainEntity).find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** null for unknown ids, malformed ids and other accounts' domains alike. */
  async findForAccount(id: string, accountId: string): Promise<MonitoredDomainEntity | null> {
    if (!UUID.test(id)) return null;
    return this.dataSource.getRepository(MonitoredDomainEntity).findOneBy({ id, accountId });
  }

  async findById(id: string): Promise<MonitoredDomainEntity | null> {
    if (!UUID.test(id)) return null;
    return this.dataSource.getRepository(MonitoredDomainEntity).findOneBy({ id });
  }

  /** Deletes the domain with its audits and drift events; false when it is not this account's. */
  async removeForAccount(id: string, accountId: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const result = await this.dataSource.getRepository(MonitoredDomainEntity).delete({ id, accountId });
    return (result.affected ?? 0) > 0;
  }

  /** Keyset pagination over every monitored domain, for the scheduler's sweep. */
  async sweepPage(afterId: string | null, size: number): Promise<SweepDomain[]> {
    const rows = await this.dataSource.getRepository(MonitoredDomainEntity).find({
      select: { id: true, accountId: true, domain: true, dkimSelectors: true },
      where: afterId ? { id: MoreThan(afterId) } : {},
      order: { id: 'ASC' },
      take: size,
    });
    return rows.map(({ id, accountId, domain, dkimSelectors }) => ({ id, accountId, domain, dkimSelectors }));
  }
}
