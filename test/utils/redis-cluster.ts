import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { waitFor } from './wait';

/**
 * A Redis Cluster of the test's own: `masters` redis-servers with --cluster-enabled on free loopback
 * ports (each with its cluster bus on another free port), joined by `redis-cli --cluster create` with
 * no replicas. Nothing is persisted; destroy() stops the servers and removes their directory.
 */
export class TestRedisCluster {
  private constructor(
    readonly ports: number[],
    private readonly children: ChildProcess[],
    private readonly dir: string,
  ) {}

  static async start(masters = 3): Promise<TestRedisCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'mailproof-redis-cluster-'));
    const ports: number[] = [];
    const children: ChildProcess[] = [];
    const cluster = new TestRedisCluster(ports, children, dir);
    try {
      for (let i = 0; i < masters; i++) {
        const [port, busPort] = [await freePort(), await freePort()];
        ports.push(port);
        const child = spawn(
          'redis-server',
          [
            ...['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1'],
            ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir],
            ...['--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
          ],
          { stdio: 'ignore' },
        );
        child.once('error', () => undefined);
        children.push(child);
      }
      for (const port of ports) await waitFor(() => cli(port, 'PING') === 'PONG', `redis-server on port ${port} to answer`, 10_000);
      const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
      await waitFor(() => ports.every((port) => /cluster_state:ok/.test(cli(port, 'CLUSTER', 'INFO'))), 'the cluster to report cluster_state:ok', 20_000, 200);
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
  }

  /** REDIS_CLUSTER_NODES for these servers. */
  get nodes(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  /** A REDIS_URL naming the first node (database 0, as a cluster requires). */
  get url(): string {
    return `redis://127.0.0.1:${this.ports[0]}`;
  }

  /** Keys held by each node that match `pattern` (KEYS is fine on a test's own small cluster). */
  keysPerNode(pattern: string): string[][] {
    return this.ports.map((port) => cli(port, '--raw', 'KEYS', pattern).split('\n').filter(Boolean));
  }

  async destroy(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function cli(port: number, ...args: string[]): string {
  const result = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 5_000 });
  return (result.stdout ?? '').trim();
}
