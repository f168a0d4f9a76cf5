import { Injectable } from '@nestjs/common';
import type { DnsAuditJobPayload, DnsAuditJobResult } from '@mailproof/contracts';
import type { JobContext, JobHandler } from '@mailproof/queue';
import { DnsAuditService } from './dns-audit.service';

/** `dns-audit.run`: audit one domain; the job id keys the stored audit, so a redelivery stores nothing twice. */
@Injectable()
export class DnsAuditHandler implements JobHandler<'dns-audit.run'> {
  readonly jobName = 'dns-audit.run';

  constructor(private readonly dnsAudits: DnsAuditService) {}

  handle(payload: DnsAuditJobPayload, context: JobContext): Promise<DnsAuditJobResult> {
    return this.dnsAudits.run(context.id, payload);
  }
}
