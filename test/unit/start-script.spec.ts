import { createServer } from 'node:net';
import { freePort as closedPort } from '../utils/free-port';

// scripts/lib/tasks.js is plain Node so it runs before anything is installed or built.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const tasks = require('../../scripts/lib/tasks') as {
  ensureServices(databaseUrl: string, redisUrl: string): Promise<void>;
  ensureSpamd(options: {
    env?: Record<string, string | undefined>;
    spamdPath?: string;
    port?: number;
  }): Promise<{ address: string | null; started?: boolean; reason?: string; stop?: () => Promise<void> }>;
  spamdAnswers(host: string, port: number, timeoutMs?: number): Promise<boolean>;
};

describe('npm start: checking PostgreSQL and Redis', () => {
  it('names the missing service, its address and how to start it when no Docker engine can start it', async () => {
    const pgPort = await closedPort();
    const redisPort = await closedPort();
    const previousPath = process.env.PATH;
    process.env.PATH = '/nonexistent'; // no docker on PATH: the fallback cannot run
    try {
      await expect(tasks.ensureServices(`postgres://postgres@127.0.0.1:${pgPort}/mailproof`, `redis://127.0.0.1:${redisPort}`)).rejects.toThrow(
        new RegExp(
          `PostgreSQL is not reachable at 127\\.0\\.0\\.1:${pgPort} \\(DATABASE_URL\\)[\\s\\S]*pg_ctlcluster[\\s\\S]*Redis is not reachable at 127\\.0\\.0\\.1:${redisPort} \\(REDIS_URL\\)[\\s\\S]*redis-server`,
        ),
      );
    } finally {
      process.env.PATH = previousPath;
    }
  });

  it('passes when both answer', async () => {
    const pg = createServer().listen(0, '127.0.0.1');
    const redis = createServer().listen(0, '127.0.0.1');
    await Promise.all([new Promise((r) => pg.once('listening', r)), new Promise((r) => redis.once('listening', r))]);
    try {
      const pgPort = (pg.address() as { port: number }).port;
      const redisPort = (redis.address() as { port: number }).port;
      await expect(tasks.ensureServices(`postgres://x@127.0.0.1:${pgPort}/db`, `redis://127.0.0.1:${redisPort}`)).resolves.toBeUndefined();
    } finally {
      pg.close();
      redis.close();
    }
  });
});

describe('npm start: a spamd for the SpamAssassin check', () => {
  /** A stand-in spamd that answers PING as spamd does. */
  async function pongServer() {
    const server = createServer((socket) => socket.once('data', () => socket.end('SPAMD/1.5 0 PONG\r\n')));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    return { server, port: (server.address() as { port: number }).port };
  }

  it('keeps SPAMASSASSIN_HOST when it is set, and turns the check off with "off"', async () => {
    await expect(tasks.ensureSpamd({ env: { SPAMASSASSIN_HOST: 'spam.internal:783' } })).resolves.toMatchObject({
      address: 'spam.internal:783',
      started: false,
    });
    await expect(tasks.ensureSpamd({ env: { SPAMASSASSIN_HOST: 'off' } })).resolves.toMatchObject({ address: null, reason: 'SPAMASSASSIN_HOST=off' });
  });

  it('uses a spamd that answers on the local port without starting one', async () => {
    const { server, port } = await pongServer();
    try {
      await expect(tasks.ensureSpamd({ env: {}, port, spamdPath: '/nonexistent/spamd' })).resolves.toMatchObject({
        address: `127.0.0.1:${port}`,
        started: false,
      });
    } finally {
      server.close();
    }
  });

  it('says why the check is off when none answers and spamd is not installed', async () => {
    const port = await closedPort();
    const result = await tasks.ensureSpamd({ env: {}, port, spamdPath: '/nonexistent/spamd' });
    expect(result.address).toBeNull();
    expect(result.reason).toMatch(new RegExp(`no spamd answers on 127\\.0\\.0\\.1:${port} and /nonexistent/spamd is not installed \\(apt-get install`));
  });

  // Debian's spamd is installed wherever the suite runs (.ci/run installs it); the SpamAssassin integration test needs it too.
  it("starts Debian's spamd when none answers, and stops it", async () => {
    const port = await closedPort();
    const result = await tasks.ensureSpamd({ env: {}, port });
    expect(result).toMatchObject({ started: true, address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    const ownPort = Number(result.address!.split(':')[1]);
    expect(await tasks.spamdAnswers('127.0.0.1', ownPort)).toBe(true);
    await result.stop!();
    expect(await tasks.spamdAnswers('127.0.0.1', ownPort)).toBe(false);
  }, 90_000);
});
