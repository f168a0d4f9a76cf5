import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { waitFor } from './wait';

/**
 * A redis-server of the test's own on a free loopback port, for outage tests: it can be stopped
 * (connections refused), frozen with SIGSTOP (connections accepted, nothing answered) and started
 * again on the same port. With `persistent`, it keeps its data in an append-only file in a
 * temporary directory, as docker/redis.conf does, so a restart keeps the queues.
 */
export class TestRedisServer {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private readonly dir: string;

  private constructor(
    readonly port: number,
    private readonly persistent: boolean,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'mailproof-redis-'));
  }

  static async start(options: { persistent?: boolean } = {}): Promise<TestRedisServer> {
    const server = new TestRedisServer(await freePort(), options.persistent ?? false);
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on its port, from its directory, and waits until it answers PING. */
  async resume(): Promise<void> {
    const persistence = this.persistent ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', this.dir, '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('error', () => undefined);
    await waitFor(() => this.ping(), `redis-server on port ${this.port} to answer`, 10_000, 50);
  }

  /** After a test, whatever it did: the server runs and answers (thawed, or started again). */
  async ensureRunning(): Promise<void> {
    this.thaw();
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) await this.resume();
  }

  /** Stops the server gracefully (SIGTERM: the append-only file is flushed), so connections are refused. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGSTOP: the port still accepts connections, but nothing is ever answered. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** One PING over a raw socket, bounded: true when the server answers PONG. */
  ping(timeoutMs = 500): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: this.port });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(timeoutMs, () => done(false));
      socket.once('error', () => done(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => done(String(data).startsWith('+PONG')));
    });
  }
}
