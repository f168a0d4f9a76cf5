import { readFileSync } from 'node:fs';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { createMailproofClient } from '../../apps/cli/src/api-client';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the generator is a plain Node script module
const { TYPES_FILE, generateApiTypes } = require('../../scripts/lib/api-client-types') as {
  TYPES_FILE: string;
  generateApiTypes(document: unknown): Promise<string>;
};

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

  it('has types generated from the OpenAPI document the API serves now (npm run generate:api-client when this fails)', async () => {
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/api/gate');
    const generated = await generateApiTypes(document);
    expect(readFileSync(TYPES_FILE, 'utf8') === generated).toBe(true);
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
