import { Client } from 'pg';
import { MIGRATIONS, migrateDatabase } from '@mailproof/persistence';
import { testConfig } from '../utils/test-config';

// Several apps may start at once: migrations run under an advisory lock, each exactly once.
describe('migrations under the advisory lock', () => {
  const config = testConfig();
  const name = `mailproof_migrate_${process.pid}_${Date.now()}`;
  const adminUrl = new URL(config.database.url);
  adminUrl.pathname = '/postgres';
  const url = new URL(config.database.url);
  url.pathname = `/${name}`;

  async function admin(sql: string) {
    const client = new Client({ connectionString: adminUrl.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(() => admin(`CREATE DATABASE "${name}"`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));

  it('lets four concurrent starts migrate a fresh database once, in order', async () => {
    const applied = await Promise.all([1, 2, 3, 4].map(() => migrateDatabase(url.toString())));
    // Exactly one caller applied everything; the others found nothing pending.
    expect(applied.filter((list) => list.length > 0)).toEqual([MIGRATIONS.map((m) => m.name)]);
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const rows = await client.query('SELECT name FROM migrations ORDER BY id');
      expect(rows.rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      const tables = await client.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('previews', 'api_keys', 'accounts', 'webhook_endpoints', 'webhook_events', 'webhook_deliveries')",
      );
      expect(tables.rows[0].n).toBe(6);
    } finally {
      await client.end();
    }
  });
});
