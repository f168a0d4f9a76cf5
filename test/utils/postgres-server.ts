import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';
import { waitFor } from './wait';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/** The newest PostgreSQL server binaries installed (Debian: /usr/lib/postgresql/<major>/bin), or PG_BIN. */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const found = majors.map((major) => join(base, major, 'bin')).find((bin) => existsSync(join(bin, 'pg_ctl')));
  if (!found) throw new Error('no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin; set PG_BIN');
  return found;
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary directory, a free loopback port, trust
 * authentication, fsync off), for outage tests: it can be stopped (`pg_ctl stop -m fast`: sessions are
 * ended with 57P01, new connections refused) and started again on the same port with its data. As root
 * (CI), the server runs as the `postgres` user, which PostgreSQL requires.
 */
export class TestPostgresServer {
  private readonly bin = postgresBin();
  private readonly asRoot = process.getuid?.() === 0;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(database = 'mailproof'): Promise<TestPostgresServer> {
    const dir = mkdtempSync(join(tmpdir(), 'mailproof-pg-'));
    const server = new TestPostgresServer(await freePort(), dir);
    if (server.asRoot) chownSync(dir, ...server.postgresIds());
    await server.exec('initdb', ['-D', server.data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await server.resume();
    const admin = new Client({ connectionString: server.urlOf('postgres') });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
    return server;
  }

  get url(): string {
    return this.urlOf('mailproof');
  }

  urlOf(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Migrates the database with the built CLI, as a deployment does (`mailproof migrate`). */
  async migrate(): Promise<void> {
    const cli = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
    await run(process.execPath, [cli, 'migrate'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: this.url, LOG_LEVEL: 'silent' } });
  }

  /** Starts the server (again) on its port and waits until it accepts connections. */
  async resume(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=100',
    ].join(' ');
    await this.exec('pg_ctl', ['-D', this.data, '-l', join(this.dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  }

  /** `pg_ctl stop -m fast`: open sessions are terminated (57P01), then connections are refused. */
  async stop(): Promise<void> {
    if (!this.running()) return;
    await this.exec('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  running(): boolean {
    return existsSync(join(this.data, 'postmaster.pid'));
  }

  /** The server log (for a failing test's message). */
  log(): string {
    const file = join(this.dir, 'server.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** True when a new connection can run a query. */
  async answers(): Promise<boolean> {
    const client = new Client({ connectionString: this.urlOf('postgres'), connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async waitUntilAnswering(): Promise<void> {
    await waitFor(() => this.answers(), `PostgreSQL on port ${this.port} to answer`, 30_000, 100);
  }

  async destroy(): Promise<void> {
    await this.exec('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  private postgresIds(): [number, number] {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return [id('-u'), id('-g')];
  }

  private async exec(tool: string, args: string[]): Promise<void> {
    const command = join(this.bin, tool);
    try {
      if (this.asRoot) await run('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: this.dir });
      else await run(command, args, { cwd: this.dir });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || String(error)}\n${this.log().slice(-2_000)}`, { cause: error });
    }
  }
}
