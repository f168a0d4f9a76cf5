import type { Command } from 'commander';
import { loadConfig } from '@mailproof/config';
import { migrateDatabase } from '@mailproof/persistence';

/** `mailproof migrate`: applies pending migrations under the advisory lock (the compose `migrate` service runs it). */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (DATABASE_URL), safe to run from several machines at once')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const applied = await migrateDatabase(loadConfig().database.url);
      if (options.json) console.log(JSON.stringify({ applied }));
      else console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    });
}
