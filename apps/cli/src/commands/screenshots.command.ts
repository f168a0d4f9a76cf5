import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { referenceShotFor, RENDER_MODES, type RenderMode } from '@mailproof/contracts';
import { analyzeEmail, renderEmailViews } from '@mailproof/engine';
import { compileEmail } from '@mailproof/sandbox';
import { clientsOption, formatOption } from './analyze.command';
import { CliError, describeInputError, UsageError } from './cli-errors';
import { withCompilers } from './email-analysis';
import { requireFormatCompilers } from './format-compilers';
import { parseClientsOption, readEmailInput } from './email-input';
import type { CompileFormat } from '@mailproof/engine/compile';

interface ScreenshotsOptions {
  out: string;
  format?: CompileFormat;
  clients?: string;
  modes?: string;
  images?: boolean;
  json?: boolean;
}

/**
 * `mailproof screenshots FILE --out DIR`: the render worker's code in this process: each client's light and
 * dark view painted in the local Chromium (CHROMIUM_PATH or /usr/bin/chromium), PNGs written to DIR with the
 * reports measured in the pages (reports.json). Remote images come through the same SSRF guard unless --no-images.
 * The reference rendering (the email as written) is painted too (`reference-<viewport>-<mode>.png`), each
 * client compared with it: `<client>-<mode>.diff.png` beside its screenshot, and the divergence per client printed.
 */
export function registerScreenshotsCommand(program: Command): void {
  program
    .command('screenshots')
    .description('render an email as each client shows it, light and dark, into PNG files (needs Chromium installed)')
    .argument('<file>', 'the email: .html, .htm, .maizzle.html, .jsx, .tsx, .mjml or .eml (its HTML part); `-` reads stdin')
    .requiredOption('--out <dir>', 'folder for the PNGs (screenshots, reference renderings, <client>-<mode>.diff.png) and reports.json (created if missing)')
    .addOption(formatOption())
    .addOption(clientsOption())
    .addOption(new Option('--modes <modes>', 'light, dark or light,dark').default('light,dark'))
    .option('--no-images', 'render without remote images')
    .option('--json', 'print what was written as JSON')
    .action(async (file: string, options: ScreenshotsOptions) => {
      const clients = parseClientsOption(options.clients);
      const modes = parseModes(options.modes ?? 'light,dark');
      const { DEFAULT_CHROMIUM_PATH, EmailImageLoader, RENDER_POOL_DEFAULTS, renderEmail, renderedReports, RenderPool, SsrfGuard } = await loadRenderer();
      const chromiumPath = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
      if (!existsSync(chromiumPath)) {
        throw new CliError(
          `no Chromium at ${chromiumPath}: install one (Debian/Ubuntu: apt-get install chromium; or \`npx @puppeteer/browsers install chrome-headless-shell@stable\`) and set CHROMIUM_PATH to its executable`,
        );
      }
      const input = await readEmailInput(file, options.format);
      const html = await withCompilers(async () => {
        try {
          requireFormatCompilers(input.format, input.label);
          return (await compileEmail(input.source, input.format)).html;
        } catch (error) {
          throw describeInputError(input.label, error);
        }
      });
      const views = renderEmailViews(html, { clients });
      // The findings name the client behaviour behind a divergence region (its cause).
      const findings = analyzeEmail(html, { clients }).cssReport;
      const pool = await RenderPool.launch({ chromiumPath, concurrency: 2, ...RENDER_POOL_DEFAULTS });
      const guard = options.images === false ? null : new SsrfGuard();
      try {
        const result = await renderEmail(pool, views.clients, modes, new EmailImageLoader(guard), views.reference);
        await mkdir(options.out, { recursive: true });
        const written: Record<string, string> = {};
        for (const [id, { page }] of [...result.painted, ...result.references]) {
          const path = join(options.out, `${id}.png`);
          await writeFile(path, page.png);
          written[id] = path;
        }
        const clientIds = views.clients.map((view) => view.clientId);
        // Loaded here, not at start: pixelmatch and pngjs are for this command only (docs/cli.md).
        const { diffImage, divergenceLines } = await import('./divergence-images');
        const diffs: Record<string, string> = {};
        for (const [id, { unit, page }] of result.painted) {
          const shot = unit.shots.find((candidate) => candidate.id === id);
          const reference = shot ? result.references.get(referenceShotFor(shot.client, shot.mode)) : undefined;
          if (!reference) continue;
          const path = join(options.out, `${id}.diff.png`);
          await writeFile(path, diffImage(reference.page.png, page.png).png);
          diffs[id] = path;
        }
        const reports = {
          ...renderedReports(result.painted, clientIds, modes, { references: result.references, findings }),
          screenshotNotes: result.notes,
          failed: result.failed,
        };
        await writeFile(join(options.out, 'reports.json'), `${JSON.stringify(reports, null, 2)}\n`);
        if (options.json) {
          console.log(JSON.stringify({ screenshots: written, diffs, distinctPages: result.units.length, ...reports }));
        } else {
          console.log(
            `${result.painted.size} screenshot(s), ${result.references.size} reference rendering(s) and ${Object.keys(diffs).length} diff image(s) from ${result.units.length} distinct page(s) written to ${options.out}`,
          );
          for (const note of result.notes) console.log(`note: ${note}`);
          for (const failure of result.failed) console.log(`failed: ${failure.id}: ${failure.reason}`);
          const overflowing = reports.overflowReport?.overflowing ?? [];
          if (overflowing.length > 0) console.log(`scrolls sideways in: ${overflowing.join(', ')}`);
          if (reports.mobileContrast) console.log(`mobile contrast failures: ${reports.mobileContrast.failing}`);
          for (const line of divergenceLines(reports.visualReport?.divergence, diffs)) console.log(line);
        }
        if (result.failed.length > 0) process.exitCode = 1;
      } finally {
        await pool.close();
        await guard?.close();
      }
    });
}

/** The packages screenshots need beyond the analysis: optional peers of the installable package. */
export const RENDER_PACKAGES = ['puppeteer-core', 'puppeteer-cluster'] as const;

/**
 * Loads the renderer only when screenshots are asked for: the installable package leaves puppeteer out
 * unless it is installed beside it (docs/cli.md), and every other command must work without it.
 */
async function loadRenderer() {
  try {
    const [render, netGuard] = await Promise.all([import('@mailproof/render'), import('@mailproof/net-guard')]);
    return { ...render, SsrfGuard: netGuard.SsrfGuard };
  } catch (error) {
    const missing = RENDER_PACKAGES.find((name) => error instanceof Error && error.message.includes(`'${name}'`));
    if (!missing) throw error;
    // puppeteer-cluster names puppeteer as a peer, whose install downloads a browser unless told not to.
    throw new CliError(
      `screenshots need ${RENDER_PACKAGES.join(' and ')} installed beside mailproof: PUPPETEER_SKIP_DOWNLOAD=1 npm install puppeteer-core@24.43.1 puppeteer-cluster@0.25.0`,
    );
  }
}

function parseModes(value: string): RenderMode[] {
  const modes = value
    .split(',')
    .map((mode) => mode.trim())
    .filter(Boolean);
  const unknown = modes.filter((mode) => !(RENDER_MODES as readonly string[]).includes(mode));
  if (modes.length === 0 || unknown.length > 0) throw new UsageError(`--modes takes light, dark or light,dark (not ${value}).`);
  return RENDER_MODES.filter((mode) => modes.includes(mode));
}
