import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { VisualReport } from '@mailproof/contracts';

// The built `mailproof screenshots` as a plain Node process with Debian's Chromium (CHROMIUM_PATH): the
// reference rendering painted beside the clients, a diff image per client and scheme, the divergence printed.
const ROOT = join(__dirname, '..', '..');
// Unreachable services: screenshots never need them.
const OFFLINE_ENV = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9' };

/** Two flex columns and a rounded button: Outlook for Windows (Word) stacks the columns and squares the button. */
const EMAIL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Columns</title>
<style>.row { display: flex; } .col { width: 300px; height: 120px; } .a { background: #1a7f37; } .b { background: #0b5fff; }
.btn { display: inline-block; padding: 12px 24px; border-radius: 24px; background: #c0199b; color: #ffffff; }</style></head>
<body style="margin:0;background:#ffffff">
<div class="row"><div class="col a">Left</div><div class="col b">Right</div></div>
<p><a class="btn" href="https://acme.test/buy">Buy</a></p>
</body></html>`;

const DIFF_RGB = [230, 0, 60];

describe('mailproof screenshots: reference, diff images and divergence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailproof-shots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes <client>-<mode>.diff.png beside each screenshot against the reference and prints the divergence per client, most different first', () => {
    writeFileSync(join(dir, 'columns.html'), EMAIL);
    const out = join(dir, 'shots');
    const result = spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin', 'mailproof.js'),
        'screenshots',
        'columns.html',
        '--out',
        out,
        '--clients',
        'gmail-web,outlook-windows-legacy',
        '--modes',
        'light',
        '--no-images',
      ],
      // A deadline, not a speed target: Chromium starts slowly on a loaded 2-core machine.
      { cwd: dir, env: OFFLINE_ENV, encoding: 'utf8', timeout: 240_000 },
    );
    if (result.status === null) throw new Error(`mailproof screenshots was stopped (${result.signal}); stderr: ${result.stderr}`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);

    const reports = JSON.parse(readFileSync(join(out, 'reports.json'), 'utf8')) as { visualReport: VisualReport };
    const divergence = reports.visualReport.divergence!;
    const scores = Object.fromEntries(Object.entries(divergence).map(([client, schemes]) => [client, schemes!.light!.score]));
    expect(Object.keys(scores).sort()).toEqual(['gmail-web', 'outlook-windows-legacy']);
    expect(scores['outlook-windows-legacy']).toBeGreaterThan(0);
    expect(scores['outlook-windows-legacy']).toBeLessThanOrEqual(100);

    const png = (name: string) => PNG.sync.read(readFileSync(join(out, name)));
    const reference = png('reference-wide-light.png');
    for (const client of ['gmail-web', 'outlook-windows-legacy']) {
      expect(existsSync(join(out, `${client}-light.png`))).toBe(true);
      const shot = png(`${client}-light.png`);
      const diff = png(`${client}-light.diff.png`);
      // The diff covers both pages: the reference's width, the longer page's height.
      expect([diff.width, diff.height]).toEqual([Math.max(reference.width, shot.width), Math.max(reference.height, shot.height)]);
      let marked = 0;
      for (let offset = 0; offset < diff.data.length; offset += 4) {
        if (diff.data[offset] === DIFF_RGB[0] && diff.data[offset + 1] === DIFF_RGB[1] && diff.data[offset + 2] === DIFF_RGB[2]) marked++;
      }
      // Pixels are marked exactly where the divergence found pixels that differ.
      expect({ client, marked: marked > 0 }).toEqual({ client, marked: scores[client] > 0 });
    }

    // Printed: the header, then one line per client in the order of their scores, each naming its diff file.
    const lines = result.stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('divergence from the email as written'));
    expect(header).toBeGreaterThan(-1);
    const printed = lines
      .slice(header + 1)
      .map((line) => /^ {2}(\S+)\s+light\s+([\d.]+)/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null);
    const expectedOrder = Object.keys(scores).sort((a, b) => scores[b] - scores[a] || (a < b ? -1 : 1));
    expect(printed.map((match) => match[1])).toEqual(expectedOrder);
    expect(printed.map((match) => Number(match[2]))).toEqual(expectedOrder.map((client) => Number(scores[client].toFixed(1))));
    expect(result.stdout).toContain(join(out, 'outlook-windows-legacy-light.diff.png'));
  });
});
