import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { GateImportHandler } from './gate-import.handler';
import { GateVerdictHandler } from './gate-verdict.handler';

/** The `gate` queue's dispatcher: light steps of gate runs (a fetch, PostgreSQL), apart from the analyses. */
@Processor('gate', { autorun: false })
export class GateProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, importer: GateImportHandler, verdict: GateVerdictHandler) {
    super('gate', config.consumerSettings(config.workers.gateConcurrency), [probeJobHandler((row) => probes.record(row)), importer, verdict]);
  }
}
