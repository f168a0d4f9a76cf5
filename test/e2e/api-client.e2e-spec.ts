import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { createMailproofClient } from '../../apps/cli/src/api-client';

const ROOT = join(__dirname, '..', '..');

// The typed API client (apps/cli/src/api-client) against the OpenAPI document the API serves: the
// checked-in types must be what openapi-typescript makes of it today, and the client must talk to the API.
describe('typed API client', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let api: RunningApi;
  let key: string;

  beforeAll(async () => {
    const db = await openDatabase(config);
    key = (await createTestAccount(db, 'free')).key;
    await db.destroy();
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api.close();
    await queues.closeAll();
  });

  it('has types generated from the OpenAPI document the built API serves now (npm run generate:api-client when this fails)', async () => {
    // The generator in a plain Node process (openapi-typescript is an ES module jest cannot load), booting the
    // built API (dist/, as production runs it: under ts-jest the document differs, some property types read
    // from decorator metadata come out as objects) on this suite's database and Redis, with --check.
    const check = spawnSync(process.execPath, [join(ROOT, 'scripts', 'generate-api-client.js'), '--check', '--no-build'], {
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent' },
      timeout: 120_000,
    });
    expect(check.stderr).toBe('');
    expect(check.stdout).toContain('apps/cli/src/api-client/openapi.ts is up to date');
    expect(check.status).toBe(0);
  }, 150_000);

  it('--check fails on a document that says something else, naming the first difference', async () => {
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/api/gate');
    const folder = mkdtempSync(join(tmpdir(), 'mailproof-openapi-'));
    try {
      const changed = { ...document, paths: { ...document.paths, '/api/extra': { get: { responses: { 200: { description: 'ok' } } } } } };
      writeFileSync(join(folder, 'changed.json'), JSON.stringify(changed));
      const stale = spawnSync(process.execPath, [join(ROOT, 'scripts', 'generate-api-client.js'), '--from', join(folder, 'changed.json'), '--check'], {
        encoding: 'utf8',
      });
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('apps/cli/src/api-client/openapi.ts is out of date');
      expect(stale.stderr).toMatch(/first difference at line \d+/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('sends typed requests and reads problem+json answers', async () => {
    const client = createMailproofClient({ baseUrl: api.url, apiKey: key });
    // A free key asking for the gate: the API answers 403 plan_required, which the client hands back as the error.
    const { data, error, response } = await client.POST('/api/gate', { body: { html: '<p>Hi</p>', format: 'html' } });
    expect(response.status).toBe(403);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ status: 403, code: 'plan_required' });
  });
});
