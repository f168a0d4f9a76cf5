import type { Queue } from 'bullmq';
import type { QueueName } from '@mailproof/contracts';
import type { MailproofConfig } from '@mailproof/config';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { freePort } from '../utils/free-port';
import { waitFor } from '../utils/wait';
import { queuePrefixVariable } from '../utils/worker-preview';

/**
 * The queues each app kind consumes: a replica counts as started once every one of its queues lists one
 * more worker. A new app kind (a webhooks worker, say) is one more entry here.
 */
export const APP_QUEUES: Record<string, QueueName[]> = {
  'worker-preview': ['preview', 'gate', 'link-check'],
  'worker-render': ['render'],
  // worker-dns also delivers webhooks (docs/webhooks.md).
  'worker-dns': ['dns-audit', 'webhook'],
  scheduler: ['scheduler'],
};

export interface Replica {
  kind: string;
  process: AppProcess;
  /** The API's base URL; undefined for worker kinds. */
  url?: string;
}

/**
 * A deployment of built apps as separate processes over the test's PostgreSQL and Redis: any number of
 * API replicas (each on its own loopback port) and of each worker kind, all on one queue prefix. Replicas
 * can be added and stopped while it runs, which is what the scale harness measures.
 */
export class Deployment {
  readonly replicas: Replica[] = [];

  constructor(
    private readonly config: MailproofConfig,
    private readonly queues: Record<QueueName, Queue>,
    private readonly env: Record<string, string> = {},
  ) {}

  /**
   * Starts `shape` (app kind -> count), APIs first, and waits until every replica serves or consumes.
   * `envByKind` adds variables for the replicas of one kind (on top of the deployment's).
   */
  async start(shape: Record<string, number>, envByKind: Record<string, Record<string, string>> = {}): Promise<this> {
    for (const [kind, count] of Object.entries(shape).sort(([a], [b]) => Number(b === 'api') - Number(a === 'api'))) {
      for (let i = 0; i < count; i++) await this.add(kind, envByKind[kind]);
    }
    return this;
  }

  /** One more replica of `kind`, started and ready; `extraEnv` goes on top of the deployment's env for this replica. */
  async add(kind: string, extraEnv: Record<string, string> = {}): Promise<Replica> {
    const env = { ...this.env, ...extraEnv, QUEUE_PREFIX: queuePrefixVariable(this.config), MIGRATE_ON_START: 'false' };
    if (kind === 'api') {
      const port = await freePort();
      const process = startAppProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' });
      const replica = { kind, process, url: `http://127.0.0.1:${port}` };
      this.replicas.push(replica);
      await waitFor(
        async () => this.exitedEarly(replica) || (await fetch(`${replica.url}/health/live`)).ok,
        `api replica on port ${port} to answer`,
        60_000,
        200,
      );
      return replica;
    }
    const queues = APP_QUEUES[kind];
    if (!queues) throw new Error(`unknown app kind ${kind}: add it to APP_QUEUES`);
    const before = await this.workerCounts(queues);
    const replica = { kind, process: startAppProcess(kind, env) };
    this.replicas.push(replica);
    await waitFor(
      async () => this.exitedEarly(replica) || (await this.workerCounts(queues)).every((count, i) => count > before[i]),
      `a ${kind} replica to consume ${queues.join(', ')}`,
      60_000,
      200,
    );
    return replica;
  }

  /** The running replicas of one kind. */
  of(kind: string): Replica[] {
    return this.replicas.filter((replica) => replica.kind === kind && replica.process.child.exitCode === null && replica.process.child.signalCode === null);
  }

  /** The API replicas' base URLs. */
  get apiUrls(): string[] {
    return this.of('api').map((replica) => replica.url!);
  }

  /** The running replicas' process ids per kind (for CPU figures from /proc: test/scale/proc-stats.ts). */
  pidsByKind(): Record<string, number[]> {
    const pids: Record<string, number[]> = {};
    for (const replica of this.replicas.filter((r) => r.process.child.exitCode === null && r.process.child.signalCode === null)) {
      (pids[replica.kind] ??= []).push(replica.process.child.pid!);
    }
    return pids;
  }

  /**
   * Stops one replica (SIGTERM: a graceful shutdown) and resolves with its exit code or signal. `graceMs`:
   * how long it may take before SIGKILL (default the app process's 20 s; the apps' own SHUTDOWN_GRACE_MS is 25 s).
   */
  async stop(replica: Replica, signal: NodeJS.Signals = 'SIGTERM', graceMs?: number): Promise<number | string> {
    if (graceMs === undefined) return replica.process.stop(signal);
    const { child, exited } = replica.process;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  async stopAll(): Promise<void> {
    // Workers before APIs would strand requests; APIs first, like a rolling shutdown.
    const ordered = [...this.replicas].sort((a, b) => Number(b.kind === 'api') - Number(a.kind === 'api'));
    for (const replica of ordered) await replica.process.stop();
  }

  private async workerCounts(queues: QueueName[]): Promise<number[]> {
    return Promise.all(queues.map(async (name) => (await this.queues[name].getWorkers()).length));
  }

  private exitedEarly(replica: Replica): false {
    const { child, output } = replica.process;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${replica.kind} exited (${child.exitCode ?? child.signalCode}) while starting:\n${output().slice(-2_000)}`);
    }
    return false;
  }
}
