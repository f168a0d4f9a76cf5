// Entry bundled by scripts/bench-engine.js: the three workloads the benchmark compares, and the
// breakdown of the reports' time by step.
import { parse, serialize } from 'parse5';
import { CLIENT_IDS, analyzeEmail } from '../libs/engine/src';
import type { ClientId } from '../libs/engine/src/clients/email-client';
import { collectFeatures } from '../libs/engine/src/analysis/collect-features';
import { SelectorCache, computeStyleCascade } from '../libs/engine/src/analysis/style-cascade';
import { type DarkColorHandover, DarkModeContext, simulateDarkModeForClient } from '../libs/engine/src/dark-mode/dark-mode-simulation';
import { parseEmail } from '../libs/engine/src/parse/parse-email';
import { buildAccessibilityReport } from '../libs/engine/src/reports/accessibility-report';
import { buildQualityReports, type QualityReports } from '../libs/engine/src/reports/build-reports';
import { buildDarkContrast, transformDropMasks } from '../libs/engine/src/reports/dark-contrast';
import { buildDesignReport } from '../libs/engine/src/reports/design-report';
import { buildImageReport } from '../libs/engine/src/reports/image-report';
import { buildInboxPreview } from '../libs/engine/src/reports/inbox-preview';
import { buildLinkReport } from '../libs/engine/src/reports/link-report';
import { buildPlainText } from '../libs/engine/src/reports/plain-text';
import { createReportContext, type ReportContext } from '../libs/engine/src/reports/context/report-context';
import { buildSizeReport } from '../libs/engine/src/reports/size-report';
import { buildSpamReport } from '../libs/engine/src/reports/spam-report';
import { buildTemplateReport } from '../libs/engine/src/reports/template-report';
import { buildVmlReport } from '../libs/engine/src/reports/vml-report';
import { TransformContext, transformForClient } from '../libs/engine/src/transforms/client-transform';
import { auditDomain } from '../libs/engine/src/dns/audit-domain';
import { StaticZoneResolver } from '../libs/engine/src/dns/static-zone-resolver';
import { buildMessageReport, parseMessage, type MessageAuthenticationInput } from '../libs/engine/src/message';
import { htmlPart, message, multipart, textPart } from '../libs/engine/src/message/testing/message-fixtures';

export const clientCount = CLIENT_IDS.length;

/** The worker's analysis threads run with these heap limits; the benchmark runs the engine with them too. */
export { ANALYSIS_THREAD_LIMITS } from '../apps/worker-preview/src/analysis/analysis-thread-limits';

/** Mailproof's full analysis: cssReport, 21 transforms, 21 dark variants, scores and every quality report. */
export function mailproof(html: string): unknown {
  return analyzeEmail(html, { format: 'html' });
}

/** The core alone (reports left null): the reports' cost is the difference to `mailproof`. */
export function mailproofCore(html: string): unknown {
  return analyzeEmail(html, { format: 'html', reports: false });
}

/** The floor: a bare parse and one serialization per client. */
export function floor(html: string): number {
  const document = parse(html);
  let length = 0;
  for (let i = 0; i < CLIENT_IDS.length; i++) length += serialize(document).length;
  return length;
}

/** The static reports in buildQualityReports' order (checked below, so that a new report cannot be left out). */
const REPORT_STEPS: ReadonlyArray<[keyof QualityReports, (context: ReportContext) => unknown]> = [
  ['spamReport', buildSpamReport],
  ['sizeReport', buildSizeReport],
  ['linkReport', buildLinkReport],
  ['accessibilityReport', buildAccessibilityReport],
  ['imageReport', buildImageReport],
  ['inboxPreview', buildInboxPreview],
  ['templateReport', (context) => buildTemplateReport(context, [])],
  ['designReport', buildDesignReport],
  ['vmlReport', buildVmlReport],
  ['plainText', buildPlainText],
];

function timed<T>(totals: Record<string, number>, step: string, run: () => T): T {
  const started = process.hrtime.bigint();
  const result = run();
  totals[step] = (totals[step] ?? 0) + Number(process.hrtime.bigint() - started) / 1e6;
  return result;
}

/** Each client's dark-mode color handover (the views themselves are garbage once this returns, as in the analysis). */
function darkHandovers(transformContext: TransformContext, selectors: SelectorCache, clients: readonly ClientId[]): DarkColorHandover[] {
  const views = clients.map((client) => transformForClient(transformContext, client));
  const darkContext = new DarkModeContext(transformContext, selectors);
  return views.map((view) => simulateDarkModeForClient(darkContext, view).colors);
}

/**
 * Where the reports' time goes: the analysis run step by step in analyzeParsedEmail's order (the
 * per-client views first, then the report context, the static reports and dark contrast), adding each
 * report step's milliseconds to `totals`. The context's lazy fields that several reports share (visible
 * text and text runs, links, images) are timed as steps of their own; everything else a report computes
 * first (the light colors: the spam report) is counted where it is computed.
 */
export function reportSteps(html: string, totals: Record<string, number>): void {
  const clients = [...CLIENT_IDS];
  const parsed = parseEmail(html);
  const selectors = new SelectorCache();
  const features = collectFeatures(parsed, selectors);
  const cascade = computeStyleCascade(parsed, selectors);
  const transformContext = new TransformContext(parsed, features, cascade);
  const handovers = darkHandovers(transformContext, selectors, clients);
  const context = timed(totals, 'report context', () =>
    createReportContext({ parsed, cascade, selectors, format: 'html', clients, dropMasks: transformDropMasks(transformContext) }),
  );
  timed(totals, 'shared: visible text, text runs', () => context.textRuns);
  timed(totals, 'shared: links', () => context.links);
  timed(totals, 'shared: images', () => context.images);
  for (const [name, build] of REPORT_STEPS) timed(totals, name, () => build(context));
  timed(totals, 'darkContrast', () => buildDarkContrast(context, handovers));
}

{
  const parsed = parseEmail('<p>x</p>');
  const selectors = new SelectorCache();
  const context = createReportContext({ parsed, cascade: computeStyleCascade(parsed, selectors), selectors, format: 'html', clients: [] });
  const built = Object.keys(buildQualityReports(context)).join(', ');
  const stepped = REPORT_STEPS.map(([name]) => name).join(', ');
  if (built !== stepped) throw new Error(`bench/engine.bench.ts: REPORT_STEPS (${stepped}) no longer match buildQualityReports (${built})`);
}

/** The headers of a marketing send as an ESP exports it: one-click unsubscribe, a DKIM signature, a feedback id. */
const MESSAGE_HEADERS = [
  'Return-Path: <bounce-4711@bounce.acme.example>',
  'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=acme.example; s=s1; t=1759829400;',
  ' h=from:to:subject:date:message-id:list-unsubscribe:list-unsubscribe-post:mime-version:content-type;',
  ' bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b=dGhpcyBpcyBhIHN0YW5kLWluIHNpZ25hdHVyZSBmb3IgdGhlIGJlbmNobWFyaw==',
  'From: "Acme News" <news@acme.example>',
  'To: reader@example.net',
  'Subject: =?UTF-8?Q?Your_October_update_=E2=80=94_three_things_changed?=',
  'Date: Tue, 07 Oct 2025 09:30:00 +0000',
  'Message-ID: <20251007093000.4711@mail.acme.example>',
  'List-Unsubscribe: <https://acme.example/u/4711>, <mailto:unsubscribe@acme.example?subject=4711>',
  'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
  'Feedback-ID: october:newsletter:acme:esp',
  'MIME-Version: 1.0',
];

/**
 * A corpus email as a whole message (the eml row): multipart/alternative with the engine's plain text of the
 * HTML as its text part, both quoted-printable as ESPs send them; and that text, which the preview worker
 * hands the report from the analysis it already made.
 */
export function messageOf(html: string): { raw: string; htmlText: string } {
  const htmlText = analyzeEmail(html, { format: 'html', clients: ['gmail-web'] }).plainText?.text ?? '';
  const raw = message(
    multipart('alternative', 'b1_bench_4711', [textPart(htmlText.replace(/\r?\n/g, '\r\n')), htmlPart(html, 'quoted-printable')]),
    MESSAGE_HEADERS,
  );
  return { raw, htmlText };
}

/** What the preview worker's lookups answer for the bench message's domains (made once, outside the timing). */
export async function messageAuthentication(): Promise<MessageAuthenticationInput> {
  const zone = new StaticZoneResolver({
    'acme.example': { TXT: ['v=spf1 include:_spf.esp.example -all'], MX: [{ exchange: 'mx.acme.example', priority: 10 }] },
    'bounce.acme.example': { TXT: ['v=spf1 include:_spf.esp.example -all'] },
    '_spf.esp.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] },
    '_dmarc.acme.example': { TXT: ['v=DMARC1; p=quarantine; rua=mailto:dmarc@acme.example'] },
  });
  return {
    audits: { 'acme.example': await auditDomain('acme.example', zone), 'bounce.acme.example': await auditDomain('bounce.acme.example', zone) },
    dkim: [{ domain: 'acme.example', selector: 's1', result: 'pass', message: 'pass' }],
  };
}

/** What format eml adds to an HTML email's analysis: the parse (its scan included) and the message report. */
export async function emlOverhead(raw: string, htmlText: string, authentication: MessageAuthenticationInput): Promise<unknown> {
  const parsed = await parseMessage(raw);
  return buildMessageReport(parsed, { htmlText, authentication });
}
