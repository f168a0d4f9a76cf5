import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';

/** Arbitrary constant shared by every Mailproof process: the advisory lock that serializes migrations. */
export const MIGRATION_LOCK_KEY = 7_314_251_009;

/**
 * Runs pending migrations while holding a PostgreSQL session-level advisory lock, so several
 * apps starting at once migrate one after the other instead of racing on the same DDL.
 * Returns the names of the migrations this call applied.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
  }
}

/** One-shot form for the CLI and the start script: connect, migrate under the lock, disconnect. */
export async function migrateDatabase(url: string): Promise<string[]> {
  const dataSource = new DataSource(buildDataSourceOptions({ url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    return await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
