import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import type { DnsAuditJobPayload } from '@mailproof/contracts';
import { isValidDkimSelector, normalizeDomain } from '@mailproof/engine/dns';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';
import { DnsAuditService } from './dns-audit.service';

const TRIGGERS = ['on-demand', 'domain-added', 'schedule'];
const MAX_SELECTORS = 20;

/** Consumes the `dns-audit` queue. Thin: check the job, call one service, store, return a small result. */
@Processor('dns-audit', { autorun: false })
export class WorkerDnsProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
    private readonly dnsAudits: DnsAuditService,
  ) {
    super(config.consumerSettings(config.workers.dnsConcurrency));
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'dns-audit', (row) => this.probes.record(row));
      case 'dns-audit.run':
        return this.dnsAudits.run(String(job.id), checkedPayload(job.data));
      default:
        throw new UnrecoverableError(`dns-audit: unknown job name ${job.name}`);
    }
  }
}

/** Bad payloads are not retried: no retry can fix them. */
function checkedPayload(data: unknown): DnsAuditJobPayload {
  const payload = data as Partial<DnsAuditJobPayload> | undefined;
  if (payload?.schemaVersion !== 1) throw new UnrecoverableError(`dns-audit.run: unsupported schemaVersion ${String(payload?.schemaVersion)}`);
  const normalized = normalizeDomain(String(payload.domain ?? ''));
  if (!normalized.ok || normalized.domain !== payload.domain) throw new UnrecoverableError(`dns-audit.run: domain is not normalised (${String(payload.domain)})`);
  const selectors = payload.dkimSelectors ?? [];
  if (!Array.isArray(selectors) || selectors.length > MAX_SELECTORS || !selectors.every((s) => typeof s === 'string' && isValidDkimSelector(s))) {
    throw new UnrecoverableError('dns-audit.run: invalid dkimSelectors');
  }
  if (!TRIGGERS.includes(String(payload.trigger))) throw new UnrecoverableError(`dns-audit.run: unknown trigger ${String(payload.trigger)}`);
  return { ...payload, dkimSelectors: selectors } as DnsAuditJobPayload;
}
