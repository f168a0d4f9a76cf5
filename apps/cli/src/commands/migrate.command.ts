import type { Command } from 'commander';

/** `mailproof migrate`: applies pending migrations under the advisory lock (the compose `migrate` service runs it). */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (DATABASE_URL), safe to run from several machines at once')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      // Loaded here, not at start (docs/cli.md, "Start-up").
      const [{ loadConfig }, { migrateDatabase }] = await Promise.all([import('@mailproof/config'), import('@mailproof/persistence')]);
      const applied = await migrateDatabase(loadConfig().database.url);
      if (options.json) console.log(JSON.stringify({ applied }));
      else console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    });
}
