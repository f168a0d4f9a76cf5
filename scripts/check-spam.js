#!/usr/bin/env node
/**
 * npm run check:spam — the engine's spam report against SpamAssassin (Debian's spamd, started here with
 * `--local`: packaged rules only, no network tests). Every corpus email (../shared/corpus, or the folder
 * given as the first argument; JSX, MJML and Maizzle compiled by the sandbox first, files that fail to
 * compile are counted and left out) and spammy variants (scripts/lib/spam-variants.js) go through
 * analyzeEmail and, as the preview worker builds the message (subject from the title, the plain-text
 * report as the text part), through spamd. Prints per email SpamAssassin's score and rules beside the
 * engine's penalty (Σ trigger weights, not clamped) and level, then Spearman's rho between the two,
 * verdict agreement, and the targets: rho ≥ 0.6 over corpus plus variants, every email SpamAssassin
 * scores ≥ 5 at least medium risk, no corpus email high risk. Exits 1 when a target is missed.
 * SPAMD_PATH overrides /usr/sbin/spamd. Method and figures: docs/accuracy.md, "Spam".
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const { spawn, spawnSync } = require('node:child_process');
const { installTypeScriptLoader, ROOT } = require('./lib/ts-require');
const { generatedVariants, injectedVariants } = require('./lib/spam-variants');

const corpusDir = path.resolve(process.argv[2] || path.join(ROOT, '..', 'shared', 'corpus'));
const SPAMD = process.env.SPAMD_PATH || '/usr/sbin/spamd';
const FORMATS = { html: 'html', jsx: 'jsx', mjml: 'mjml', maizzle: 'maizzle' };
/** Corpus emails that also get spam injected (a fixed sample spread over the folder). */
const INJECT_EVERY = 9;
const CONCURRENCY = 2;
const MESSAGE_DATE = new Date('2026-03-02T09:30:00Z');

installTypeScriptLoader();
const { analyzeEmail } = require(path.join(ROOT, 'libs/engine/src/index.ts'));
const { buildMimeMessage } = require(path.join(ROOT, 'apps/worker-preview/src/mime-message.builder.ts'));
const { checkWithSpamd } = require(path.join(ROOT, 'apps/worker-preview/src/spamd.client.ts'));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Debian's spamd on a free loopback port, local rules only; resolves once it accepts connections. */
async function startSpamd() {
  if (spawnSync(SPAMD, ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`spamd not found at ${SPAMD}: apt-get install spamassassin spamc spamd (or set SPAMD_PATH)`);
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-check-spam-'));
  const port = await freePort();
  const child = spawn(
    SPAMD,
    ['--local', '--listen-ip=127.0.0.1', `--port=${port}`, `--max-children=${CONCURRENCY}`, `--min-children=${CONCURRENCY}`, '--nouser-config', '--syslog=stderr', `--pidfile=${path.join(directory, 'spamd.pid')}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
  const deadline = Date.now() + 60_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`spamd did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(directory, { recursive: true, force: true });
  };
  return { port, stop };
}

/** The corpus as HTML: HTML files as they are, the other formats compiled by the sandbox. */
async function loadCorpus() {
  const { compileEmail, disposeCompilers, warmCompilers } = require(path.join(ROOT, 'libs/sandbox/src/index.ts'));
  await warmCompilers();
  const emails = [];
  const failed = {};
  try {
    for (const folder of Object.keys(FORMATS)) {
      const dir = path.join(corpusDir, folder);
      if (!fs.existsSync(dir)) continue;
      for (const file of fs.readdirSync(dir).sort()) {
        const source = fs.readFileSync(path.join(dir, file), 'utf8');
        try {
          const { html } = await compileEmail(source, FORMATS[folder], { timeoutMs: 5000 });
          emails.push({ name: `${folder}/${file}`, technique: 'corpus', format: FORMATS[folder], html, corpus: true });
        } catch {
          failed[folder] = (failed[folder] || 0) + 1;
        }
      }
    }
  } finally {
    await disposeCompilers();
  }
  return { emails, failed };
}

/** Ranks from 1, ties sharing their average rank. */
function ranks(values) {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const result = new Array(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1].value === order[i].value) j++;
    for (let k = i; k <= j; k++) result[order[k].index] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return result;
}

function pearson(xs, ys) {
  const n = xs.length;
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / n;
  const mx = mean(xs);
  const my = mean(ys);
  let covariance = 0;
  let vx = 0;
  let vy = 0;
  for (let i = 0; i < n; i++) {
    covariance += (xs[i] - mx) * (ys[i] - my);
    vx += (xs[i] - mx) ** 2;
    vy += (ys[i] - my) ** 2;
  }
  return vx === 0 || vy === 0 ? NaN : covariance / Math.sqrt(vx * vy);
}

/** Spearman's rho: Pearson's correlation of the ranks (ties averaged). */
const spearman = (xs, ys) => pearson(ranks(xs), ranks(ys));

async function mapLimited(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

async function main() {
  if (!fs.existsSync(corpusDir)) {
    console.error(`corpus folder not found: ${corpusDir}`);
    process.exit(2);
  }
  const { emails: corpus, failed } = await loadCorpus();
  const injected = corpus
    .filter((email) => email.format === 'html')
    .filter((_, index) => index % INJECT_EVERY === 0)
    .flatMap((email) => injectedVariants(path.basename(email.name, '.html'), email.html).map((variant) => ({ ...variant, format: 'html', corpus: false })));
  const variants = generatedVariants().map((variant) => ({ ...variant, format: 'html', corpus: false }));
  const emails = [...corpus, ...variants, ...injected];

  const spamd = await startSpamd();
  let rows;
  try {
    rows = await mapLimited(emails, CONCURRENCY, async (email, index) => {
      const analysis = analyzeEmail(email.html, { format: email.format });
      const report = analysis.spamReport;
      const message = buildMimeMessage({ html: email.html, text: analysis.plainText?.text ?? null, subject: analysis.inboxPreview?.subject ?? null, id: `check-spam-${index}`, date: MESSAGE_DATE });
      const verdict = await checkWithSpamd(message, { host: '127.0.0.1', port: spamd.port, timeoutMs: 60_000 });
      return {
        ...email,
        sa: verdict.score,
        saRules: verdict.rules.filter((rule) => rule.score !== 0).map((rule) => `${rule.name}:${rule.score}`),
        penalty: report.triggers.reduce((sum, trigger) => sum + trigger.weight, 0),
        level: report.level,
        triggers: report.triggers.filter((trigger) => trigger.weight > 0).map((trigger) => `${trigger.rule}:${trigger.weight}`),
      };
    });
  } finally {
    await spamd.stop();
  }

  for (const row of rows) {
    console.log(`${row.name.padEnd(72)} SA ${row.sa.toFixed(1).padStart(5)}  engine ${String(row.penalty).padStart(3)} ${row.level.padEnd(6)}  engine: ${row.triggers.join(' ') || '-'}  SA: ${row.saRules.join(' ')}`);
  }

  const rho = (subset) => spearman(subset.map((row) => row.sa), subset.map((row) => row.penalty));
  const corpusRows = rows.filter((row) => row.corpus);
  const variantRows = rows.filter((row) => !row.corpus);
  const flagged = (row) => row.level !== 'low';
  const agree = rows.filter((row) => (row.sa >= 5) === flagged(row)).length;
  const agreeHigh = rows.filter((row) => (row.sa >= 5) === (row.level === 'high')).length;
  const spam = rows.filter((row) => row.sa >= 5);
  const missedSpam = spam.filter((row) => row.level === 'low');
  const highCorpus = corpusRows.filter((row) => row.level === 'high');
  const count = (subset, predicate) => subset.filter(predicate).length;

  console.log('');
  console.log(`emails: ${rows.length} (corpus ${corpusRows.length} compiled; left out, not compiling: ${Object.entries(failed).map(([folder, n]) => `${folder} ${n}`).join(', ') || 'none'}; variants ${variantRows.length})`);
  console.log(`Spearman rho (SpamAssassin score vs engine penalty): all ${rho(rows).toFixed(3)}, corpus ${rho(corpusRows).toFixed(3)}, variants ${rho(variantRows).toFixed(3)}`);
  console.log(`SpamAssassin >= 5: ${spam.length} (${count(spam, (row) => row.level === 'high')} high, ${count(spam, (row) => row.level === 'medium')} medium, ${missedSpam.length} low)`);
  console.log(`SpamAssassin < 5: ${rows.length - spam.length} (${count(rows, (row) => row.sa < 5 && row.level === 'high')} high, ${count(rows, (row) => row.sa < 5 && row.level === 'medium')} medium, ${count(rows, (row) => row.sa < 5 && row.level === 'low')} low)`);
  const share = (n) => `${n}/${rows.length} (${((n / rows.length) * 100).toFixed(1)}%)`;
  console.log(`verdict agreement, SpamAssassin spam (>= 5) vs engine high risk: ${share(agreeHigh)}; vs engine medium or high: ${share(agree)}`);
  console.log(`corpus levels: ${count(corpusRows, (row) => row.level === 'low')} low, ${count(corpusRows, (row) => row.level === 'medium')} medium, ${highCorpus.length} high; SpamAssassin max on the corpus ${Math.max(...corpusRows.map((row) => row.sa)).toFixed(1)}`);

  const misses = [];
  if (!(rho(rows) >= 0.6)) misses.push(`rho ${rho(rows).toFixed(3)} < 0.6`);
  for (const row of missedSpam) misses.push(`${row.name}: SpamAssassin ${row.sa} but engine risk low`);
  for (const row of highCorpus) misses.push(`${row.name}: corpus email at high risk`);
  if (misses.length > 0) {
    console.log(`\ntargets missed:\n  ${misses.join('\n  ')}`);
    process.exit(1);
  }
  console.log('\ntargets met: rho >= 0.6, every SpamAssassin >= 5 at least medium, no corpus email high');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
