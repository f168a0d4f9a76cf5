import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort as freeTcpPort } from './free-port';

/** Records of one name, as a fixture zone lists them. TTL defaults to 300 s. */
export interface FixtureRecords {
  TXT?: string[];
  MX?: Array<{ exchange: string; priority: number }>;
  A?: string[];
  AAAA?: string[];
  ttl?: number;
}
export type FixtureZone = Record<string, FixtureRecords>;

export interface UnboundOptions {
  /** Every name the server answers for; the whole `test.` TLD is otherwise NXDOMAIN. */
  records: FixtureZone;
  /** Zones delegated to a server that never answers: lookups under them time out. */
  silentZones?: string[];
}

const UNBOUND = process.env.UNBOUND_PATH ?? '/usr/sbin/unbound';
const UNBOUND_CONTROL = process.env.UNBOUND_CONTROL_PATH ?? '/usr/sbin/unbound-control';

export function unboundAvailable(): boolean {
  return spawnSync(UNBOUND, ['-V'], { stdio: 'ignore' }).status === 0;
}

/** A UDP socket that reads queries and never answers: the "server" behind silent zones. */
async function blackhole(): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', () => undefined);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

function quote(text: string): string {
  // Character-strings hold at most 255 bytes; longer TXT values are split (RFC 7208 3.3).
  const chunks = text.match(/[\s\S]{1,200}/g) ?? [''];
  return chunks.map((chunk) => `"${chunk.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(' ');
}

/** unbound local-data lines ("name TTL IN TYPE data") for one name. */
export function localData(name: string, records: FixtureRecords): string[] {
  const owner = name.endsWith('.') ? name : `${name}.`;
  const ttl = records.ttl ?? 300;
  const lines: string[] = [];
  for (const txt of records.TXT ?? []) lines.push(`${owner} ${ttl} IN TXT ${quote(txt)}`);
  for (const mx of records.MX ?? []) lines.push(`${owner} ${ttl} IN MX ${mx.priority} ${mx.exchange === '' ? '.' : `${mx.exchange.replace(/\.$/, '')}.`}`);
  for (const a of records.A ?? []) lines.push(`${owner} ${ttl} IN A ${a}`);
  for (const aaaa of records.AAAA ?? []) lines.push(`${owner} ${ttl} IN AAAA ${aaaa}`);
  return lines;
}

/**
 * A real DNS server for tests: Debian's unbound, in the foreground on random loopback ports,
 * serving fixture records over UDP and over DNS-over-HTTPS on cleartext HTTP/2 (h2c), with
 * `unbound-control` on a unix socket so a test can change records between two audits.
 */
export class UnboundServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly directory: string,
    private readonly silent: Socket,
    readonly dohPort: number,
    readonly udpPort: number,
    private readonly output: string[],
  ) {}

  /** `host:port` for DNS_SERVERS (with DNS_PROTOCOL=http). */
  get dohServer(): string {
    return `127.0.0.1:${this.dohPort}`;
  }

  static async start(options: UnboundOptions): Promise<UnboundServer> {
    const directory = mkdtempSync(join(tmpdir(), 'mailproof-unbound-'));
    const [dohPort, udpPort, silent] = await Promise.all([freeTcpPort(), freeTcpPort(), blackhole()]);
    const silentPort = (silent.address() as { port: number }).port;
    const data = Object.entries(options.records).flatMap(([name, records]) => localData(name, records));
    const config = [
      'server:',
      '  verbosity: 0',
      '  do-daemonize: no',
      '  username: ""',
      '  chroot: ""',
      `  directory: "${directory}"`,
      `  pidfile: "${join(directory, 'unbound.pid')}"`,
      '  use-syslog: no',
      '  logfile: ""',
      `  port: ${udpPort}`,
      `  interface: 127.0.0.1@${udpPort}`,
      `  interface: 127.0.0.1@${dohPort}`,
      `  https-port: ${dohPort}`,
      '  http-notls-downstream: yes',
      '  do-ip6: no',
      '  access-control: 127.0.0.0/8 allow',
      '  module-config: "iterator"',
      '  do-not-query-localhost: no',
      '  num-threads: 1',
      '  outgoing-range: 64',
      '  local-zone: "test." static',
      ...(options.silentZones ?? []).map((zone) => `  local-zone: "${zone.replace(/\.$/, '')}." transparent`),
      // Single quotes outside, so TXT data keeps its own double quotes.
      ...data.map((line) => `  local-data: '${line}'`),
      ...(options.silentZones ?? []).flatMap((zone) => ['stub-zone:', `  name: "${zone.replace(/\.$/, '')}."`, `  stub-addr: 127.0.0.1@${silentPort}`]),
      'remote-control:',
      '  control-enable: yes',
      `  control-interface: "${join(directory, 'control.sock')}"`,
      '  control-use-cert: no',
      '',
    ].join('\n');
    if (!unboundAvailable()) {
      throw new Error(`unbound is not installed at ${UNBOUND}: run "apt-get install -y unbound" (CI's .ci/run does). The DNS suites do not skip.`);
    }
    const configPath = join(directory, 'unbound.conf');
    writeFileSync(configPath, config);
    const output: string[] = [];
    const child = spawn(UNBOUND, ['-d', '-c', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const server = new UnboundServer(child, directory, silent, dohPort, udpPort, output);
    await server.waitUntilServing(10_000);
    return server;
  }

  private async waitUntilServing(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`unbound exited (${this.child.exitCode}): ${this.output.join('').slice(-2000)}`);
      if (this.control(['status']).ok) {
        const probe = await new Promise<boolean>((resolve) => {
          const socket = createServer().listen(this.dohPort, '127.0.0.1');
          socket.once('error', () => resolve(true)); // port taken: unbound is listening
          socket.once('listening', () => socket.close(() => resolve(false)));
        });
        if (probe) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`unbound did not start within ${timeoutMs} ms: ${this.output.join('').slice(-2000)}`);
  }

  private control(args: string[]): { ok: boolean; output: string } {
    const result = spawnSync(UNBOUND_CONTROL, ['-c', join(this.directory, 'unbound.conf'), ...args], { encoding: 'utf8', timeout: 5_000 });
    return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
  }

  /** Replaces every record of `name` (all types) with `records`. */
  setRecords(name: string, records: FixtureRecords): void {
    const owner = name.endsWith('.') ? name : `${name}.`;
    const removed = this.control(['local_data_remove', owner]);
    if (!removed.ok) throw new Error(`unbound-control local_data_remove failed: ${removed.output}`);
    for (const line of localData(name, records)) {
      const added = this.control(['local_data', ...line.split(' ').slice(0, 4), line.split(' ').slice(4).join(' ')]);
      if (!added.ok) throw new Error(`unbound-control local_data failed: ${added.output}`);
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    this.silent.close();
    rmSync(this.directory, { recursive: true, force: true });
  }
}
