import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { LinksResolveHandler } from './links-resolve.handler';

/** The `link-check` queue's dispatcher: network-bound link resolution, many at once. */
@Processor('link-check', { autorun: false })
export class LinkCheckProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, links: LinksResolveHandler) {
    super('link-check', config.consumerSettings(config.workers.linkCheckConcurrency), [probeJobHandler((row) => probes.record(row)), links]);
  }
}
