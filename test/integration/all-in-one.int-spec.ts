import { spawn } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { freePort } from '../utils/free-port';

const ROOT = join(__dirname, '..', '..');

// What `npm start` runs after its set-up: every app in one Node process.
describe('the all-in-one launcher', () => {
  const config = testConfig();
  const queues = openQueues(config);
  afterAll(() => queues.closeAll());

  it('runs the API, every worker and the scheduler in one process, ready and answering, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'launcher', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', QUEUE_PREFIX: config.queue.prefix },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      const ready = await waitFor(
        async () => {
          const response = await request(url).get('/health/ready');
          return response.status === 200 ? response : undefined;
        },
        'the all-in-one process to be ready',
        60_000,
        250,
      );
      // The round trip queues real jobs, so it needs a key (any plan).
      const db = await openDatabase(config);
      const { key } = await createTestAccount(db, 'free').finally(() => db.destroy());
      expect(Object.keys(ready.body.details).sort()).toEqual(
        ['postgres', 'queue:dns-audit', 'queue:gate', 'queue:link-check', 'queue:preview', 'queue:render', 'queue:scheduler', 'queue:webhook', 'redis'].sort(),
      );
      for (const queue of ['preview', 'render', 'dns-audit', 'scheduler']) {
        const response = await request(url).post('/api/diagnostics/round-trip').set('x-api-key', key).send({ queue }).expect(200);
        expect(response.body.workerId).toMatch(new RegExp(`-${child.pid}$`));
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
