import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { signInToDashboard } from '../utils/dashboard-session';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

describe('the dashboard clients page (/app/clients)', () => {
  const config = testConfig({ TRUSTED_PROXIES: '127.0.0.1' });
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  it('shows each client with the inventory counts and source dates GET /api/clients gives, behind the sign-in', async () => {
    await request(api.url).get('/app/clients').expect(303);
    const account = await createTestAccount(db, 'free', `dash-clients-${Date.now()}`);
    const { cookie } = await signInToDashboard(api.url, account.key, '198.51.100.70');
    const page = await request(api.url).get('/app/clients').set('Cookie', cookie).expect(200);
    expect(page.text).toContain('aria-current="page">Clients</a>');
    const clients = (await request(api.url).get('/api/clients').expect(200)).body as Array<{
      id: string;
      inventory: { modeled: number; notModeled: number; notApplicable: number; sourcesReadAt: Record<string, string> };
    }>;
    expect(clients).toHaveLength(21);
    for (const client of clients) {
      const start = page.text.indexOf(`<tr id="client-${client.id}">`);
      expect([client.id, start]).not.toEqual([client.id, -1]);
      const row = page.text.slice(start, page.text.indexOf('</tr>', start));
      expect(row).toContain(`<td data-count="modeled">${client.inventory.modeled}</td>`);
      expect(row).toContain(`<td data-count="not-modeled">${client.inventory.notModeled}</td>`);
      expect(row).toContain(`<td data-count="not-applicable">${client.inventory.notApplicable}</td>`);
      for (const date of Object.values(client.inventory.sourcesReadAt)) expect(row).toContain(`<time datetime="${date}">`);
    }
  });
});
