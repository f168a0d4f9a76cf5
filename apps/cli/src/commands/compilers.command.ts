import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CompileFormat } from '@mailproof/engine/compile';
import { CliError } from './cli-errors';
import { formatOption } from './analyze.command';
import { detectFormat } from './email-input';
import { FORMAT_PACKAGES, installSpec, missingPackages } from './format-compilers';

/**
 * `mailproof compilers FILE...`: the npm specs of the compiler packages the emails' formats need that are not
 * installed, on one line (nothing when none is missing), for scripts that install them before a lint or a gate
 * (action.yml does). `--server`: only what `gate` against a server needs (the server compiles; reading a JSX
 * email's local imports needs esbuild). `--all`: every package of those formats, installed or not.
 */
export function registerCompilersCommand(program: Command): void {
  program
    .command('compilers')
    .description("print the npm packages the emails' formats compile with that are not installed (the package installs them on demand)")
    .argument('<files...>', 'emails (.html, .htm, .maizzle.html, .jsx, .tsx, .mjml, .eml)')
    .addOption(formatOption())
    .option('--server', 'only what `gate` against a server needs on this machine')
    .option('--all', 'every package of those formats, installed or not')
    .action(async (files: string[], options: { format?: CompileFormat; server?: boolean; all?: boolean }) => {
      const formats = new Set<CompileFormat>();
      for (const file of files) {
        let source: string;
        try {
          source = await readFile(file, 'utf8');
        } catch (error) {
          throw new CliError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'read');
        }
        formats.add(detectFormat(file, options.format, source).format);
      }
      const names = new Set<string>();
      for (const format of formats) {
        const needed = options.server ? (format === 'jsx' ? ['esbuild'] : []) : FORMAT_PACKAGES[format];
        for (const name of needed) names.add(name);
      }
      const listed = options.all ? [...names] : missingPackages([...names]);
      if (listed.length > 0) console.log(listed.map((name) => installSpec(name)).join(' '));
    });
}
