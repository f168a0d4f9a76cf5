import { createServer } from 'node:net';
import { freePort as closedPort } from '../utils/free-port';

// scripts/lib/tasks.js is plain Node so it runs before anything is installed or built.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tasks = require('../../scripts/lib/tasks') as {
  ensureServices(databaseUrl: string, redisUrl: string): Promise<void>;
};

describe('npm start: checking PostgreSQL and Redis', () => {
  it('names the missing service, its address and how to start it when no Docker engine can start it', async () => {
    const pgPort = await closedPort();
    const redisPort = await closedPort();
    const previousPath = process.env.PATH;
    process.env.PATH = '/nonexistent'; // no docker on PATH: the fallback cannot run
    try {
      await expect(tasks.ensureServices(`postgres://postgres@127.0.0.1:${pgPort}/mailproof`, `redis://127.0.0.1:${redisPort}`)).rejects.toThrow(
        new RegExp(`PostgreSQL is not reachable at 127\\.0\\.0\\.1:${pgPort} \\(DATABASE_URL\\)[\\s\\S]*pg_ctlcluster[\\s\\S]*Redis is not reachable at 127\\.0\\.0\\.1:${redisPort} \\(REDIS_URL\\)[\\s\\S]*redis-server`),
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
