import { ConsumerHost } from '@mailproof/queue';
import { DnsAuditProcessor } from '../../apps/worker-dns/src/dns-audit.processor';
import { PreviewProcessor } from '../../apps/worker-preview/src/preview.processor';
import { RenderProcessor } from '../../apps/worker-render/src/render.processor';
import { SchedulerProcessor } from '../../apps/scheduler/src/scheduler.processor';

const settings = { concurrency: 1, lockDurationMs: 30_000, stalledIntervalMs: 30_000 };

describe('the apps\' processors', () => {
  const config = { consumerSettings: () => settings, workers: {} } as never;
  const stub = {} as never;
  it.each<[string, () => ConsumerHost]>([
    ['preview', () => new PreviewProcessor(config, stub, { jobName: 'preview.analyze' } as never)],
    ['dns-audit', () => new DnsAuditProcessor(config, stub, { jobName: 'dns-audit.run' } as never)],
    ['scheduler', () => new SchedulerProcessor(config, stub, { jobName: 'drift-sweep.run' } as never, { jobName: 'preview-cleanup.run' } as never)],
    ['render', () => new RenderProcessor(config, stub)],
  ])('%s: handles every job the map runs on its queue (construction would refuse otherwise)', (_queue, build) => {
    expect(build()).toBeInstanceOf(ConsumerHost);
  });
});
