import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { DnsAuditHandler } from './dns-audit.handler';

/** The `dns-audit` queue's dispatcher: its handlers, nothing else (ConsumerHost checks and dispatches). */
@Processor('dns-audit', { autorun: false })
export class DnsAuditProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, audit: DnsAuditHandler) {
    super('dns-audit', config.consumerSettings(config.workers.dnsConcurrency), [probeJobHandler((row) => probes.record(row)), audit]);
  }
}
