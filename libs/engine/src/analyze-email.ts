import { collectFeatures } from './analysis/collect-features';
import { placeFindingsInSource } from './compile/source-positions';
import { buildCssReport } from './analysis/css-report';
import { SelectorCache, StyleCascade, computeStyleCascade } from './analysis/style-cascade';
import type { CssFinding } from './analysis/css-finding';
import { CLIENT_IDS, ClientId } from './clients/email-client';
import { isClientId } from './clients/email-clients';
import { DarkColorHandover, DarkModeContext, simulateDarkModeForClient } from './dark-mode/dark-mode-simulation';
import { EngineError } from './errors';
import { EMAIL_FORMATS, EmailFormat } from './fixes/code-fix';
import { HtmlElement, HtmlText } from './parse/dom';
import { ParsedEmail, parseEmail } from './parse/parse-email';
import { AnalyzeEmailOptions, PreviewAnalysis } from './preview-analysis';
import { buildQualityReports, type QualityReports } from './reports/build-reports';
import type { CompileWarning } from './compile/compile-format';
import type { ReportContext } from './reports/context/report-context';
import { buildDarkContrast, transformDropMasks } from './reports/dark-contrast';
import { createReportContext } from './reports/context/report-context';
import { overallScore, scoreClients } from './scores/compatibility-score';
import { TransformContext, transformForClient } from './transforms/client-transform';
import { emptyPlan, planWeight, RenderPlan, RenderTemplate, samePlan } from './transforms/render-template';

/** Bad options (not a problem in the email): unknown client ids or format. */
export class EngineInputError extends EngineError {
  constructor(
    message: string,
    readonly field: 'clients' | 'format' | 'tiers',
    readonly validValues: readonly string[],
  ) {
    super(message, 'validation_failed');
  }
}

export function resolveClients(requested: readonly string[] | undefined): ClientId[] {
  if (requested === undefined) return [...CLIENT_IDS];
  const unknown = requested.filter((id) => !isClientId(id));
  if (unknown.length > 0) {
    throw new EngineInputError(`Unknown client id(s): ${unknown.join(', ')}. Valid ids: ${CLIENT_IDS.join(', ')}.`, 'clients', CLIENT_IDS);
  }
  const wanted = new Set(requested);
  return CLIENT_IDS.filter((id) => wanted.has(id));
}

/** The format an email's markup is analyzed as: a message's HTML part exactly as an HTML email (docs/messages.md). */
export function analysisFormat(format: EmailFormat): EmailFormat {
  return format === 'eml' ? 'html' : format;
}

export function resolveFormat(format: string | undefined): EmailFormat {
  if (format === undefined) return 'html';
  if (!(EMAIL_FORMATS as readonly string[]).includes(format)) {
    throw new EngineInputError(`Unknown format ${format}. Valid formats: ${EMAIL_FORMATS.join(', ')}.`, 'format', EMAIL_FORMATS);
  }
  return format as EmailFormat;
}

function isEmptyPlan(plan: RenderPlan): boolean {
  return (
    plan.startTags.size === 0 &&
    !plan.baseStartTags?.size &&
    plan.removed.size === 0 &&
    plan.unwrapped.size === 0 &&
    plan.styleTexts.size === 0 &&
    plan.comments.size === 0 &&
    plan.texts.size === 0 &&
    !plan.endTags?.size &&
    !plan.afterStartTags?.size &&
    !plan.prefixedStartTags?.size &&
    !plan.dropNotMsoRanges
  );
}

/**
 * Every client's transform and dark variant, rendered. Only the rendered markup, the warnings and the
 * color handovers dark contrast reads leave this function: the views and plans are garbage once it
 * returns, so the quality reports, which run afterwards, never share a young generation with them.
 */
function renderClients(
  parsed: ParsedEmail,
  transformContext: TransformContext,
  selectors: SelectorCache,
  clients: readonly ClientId[],
  annotateLines = false,
): Pick<PreviewAnalysis, 'transforms' | 'darkMode'> & { handovers: DarkColorHandover[]; reference: () => string } {
  const views = clients.map((client) => transformForClient(transformContext, client));
  const darkContext = new DarkModeContext(transformContext, selectors);
  const darkVariants = views.map((view) => simulateDarkModeForClient(darkContext, view));
  const editable = new Set<HtmlElement>();
  const editableTexts = new Set<HtmlText>();
  const prefixedMaps = new Set<ReadonlyMap<HtmlElement, string>>();
  for (const plan of [...views.map((v) => v.plan), ...darkVariants.map((d) => d.plan)]) {
    for (const element of plan.startTags.keys()) editable.add(element);
    for (const element of plan.removed) editable.add(element);
    for (const element of plan.unwrapped) editable.add(element);
    for (const element of plan.afterStartTags?.keys() ?? []) editable.add(element);
    for (const element of plan.endTags?.keys() ?? []) editable.add(element);
    for (const text of plan.texts.keys()) editableTexts.add(text);
    if (plan.prefixedStartTags) prefixedMaps.add(plan.prefixedStartTags);
  }
  // With a prefixing client a second template is built (below): it reuses the first one's start tags.
  const startTags = [...prefixedMaps].some((tags) => tags.size > 0) ? new Map<HtmlElement, string>() : undefined;
  const template = new RenderTemplate(parsed, editable, { annotateLines, editableTexts, startTags });
  // Clients that prefix class names rewrite every named element: they render from a template of their own
  // with those elements as slots, so that the other clients' renders keep them in constant strings.
  let prefixedTemplate: RenderTemplate | undefined;
  const templateFor = (plan: RenderPlan): RenderTemplate => {
    if (!plan.prefixedStartTags?.size) return template;
    if (!prefixedTemplate) {
      const withNamed = new Set(editable);
      for (const tags of prefixedMaps) for (const element of tags.keys()) withNamed.add(element);
      prefixedTemplate = new RenderTemplate(parsed, withNamed, { annotateLines, editableTexts, startTags });
    }
    return prefixedTemplate;
  };
  let unchanged: string | undefined;
  // Clients whose plans hold the same changes render the same markup (Outlook.com's two, light and dark, Gmail's
  // web and Android apps, the Yahoo family's members often): it is rendered once (about one render in six).
  const rendered: Array<{ plan: RenderPlan; weight: number; html: string }> = [];
  const render = (plan: RenderPlan): string => {
    if (isEmptyPlan(plan)) {
      unchanged ??= template.render(plan);
      return unchanged;
    }
    const weight = planWeight(plan);
    for (const earlier of rendered) if (earlier.weight === weight && samePlan(earlier.plan, plan)) return earlier.html;
    const html = templateFor(plan).render(plan);
    rendered.push({ plan, weight, html });
    return html;
  };
  const transforms = views.map((view) => ({ clientId: view.client, html: render(view.plan), warnings: view.warnings }));
  const darkMode: PreviewAnalysis['darkMode'] = {};
  views.forEach((view, index) => {
    const variant = darkVariants[index];
    darkMode[view.client] = { html: variant.sameAsTransform ? transforms[index].html : render(variant.plan), warnings: variant.warnings };
  });
  // The email as written (no client rewrite), from the same template: a client whose plan is empty renders
  // the very same string, so its page and the reference are one render.
  const reference = (): string => render(emptyPlan());
  return { transforms, darkMode, handovers: darkVariants.map((variant) => variant.colors), reference };
}

/** One client's markup as a browser should paint it (see renderClientViews). */
export interface ClientRenderView {
  clientId: ClientId;
  /** The client's rewritten markup (the preview's `transforms[].html`), every start tag with its source line. */
  light: string;
  /** Its dark variant (`darkMode[client].html`), annotated the same way. */
  dark: string;
  /**
   * Whether the dark variant is painted with `prefers-color-scheme: dark`: true for clients that apply the
   * email's own dark rules; inverting clients show the simulated (recolored) variant under a light scheme.
   */
  darkUsesDarkScheme: boolean;
}

/** What the render worker paints: every client's view, and the reference (the email as written). */
export interface EmailRenderViews {
  /**
   * The analyzed HTML with no client rewrite (the author's intent), annotated like the client views:
   * the reference rendering of the visual divergence (docs/visual.md).
   */
  reference: string;
  clients: ClientRenderView[];
}

/**
 * What the render worker paints: each client's light and dark markup exactly as the analysis produces it,
 * plus `data-mp-line` on every start tag (the element's line in `html`), so measurements taken in the
 * rendered page point back to the source. No findings, scores or reports are computed.
 */
export function renderEmailViews(html: string, options: Pick<AnalyzeEmailOptions, 'clients'> = {}): EmailRenderViews {
  const clients = resolveClients(options.clients);
  const parsed = parseEmail(html);
  const selectors = new SelectorCache();
  const features = collectFeatures(parsed, selectors);
  const cascade = computeStyleCascade(parsed, selectors);
  const { transforms, darkMode, handovers, reference } = renderClients(parsed, new TransformContext(parsed, features, cascade), selectors, clients, true);
  return {
    reference: reference(),
    clients: transforms.map((transform, index) => ({
      clientId: transform.clientId,
      light: transform.html,
      dark: darkMode[transform.clientId].html,
      darkUsesDarkScheme: handovers[index].mode === 'dark-media',
    })),
  };
}

/** The client views of renderEmailViews, without the reference. */
export function renderClientViews(html: string, options: Pick<AnalyzeEmailOptions, 'clients'> = {}): ClientRenderView[] {
  return renderEmailViews(html, options).clients;
}

/** The compatibility core of an analysis: features, the `<style>` cascade, client behaviors and cssReport (positions in `parsed`). */
export interface CompatibilityAnalysis {
  selectors: SelectorCache;
  cascade: StyleCascade;
  transformContext: TransformContext;
  cssReport: CssFinding[];
}

/** Shared by analyzeParsedEmail and the auto-fix's findings ledger, which renders no client. */
export function analyzeCompatibility(parsed: ParsedEmail, format: EmailFormat, clients: readonly ClientId[]): CompatibilityAnalysis {
  const selectors = new SelectorCache();
  const features = collectFeatures(parsed, selectors);
  const cascade = computeStyleCascade(parsed, selectors);
  const transformContext = new TransformContext(parsed, features, cascade);
  const cssReport = buildCssReport({
    parsed,
    hits: features.hits,
    cascade,
    format,
    clients,
    uses: features,
    behaviors: (client) => transformContext.behaviorOutcome(client),
  });
  return { selectors, cascade, transformContext, cssReport };
}

/**
 * The whole compatibility analysis of already-compiled HTML, synchronously: parse once, analyze
 * once, then specialise per client (transforms, dark-mode variants, findings and scores).
 * Throws EngineLimitError past the bounds of limits.ts and EngineInputError on bad options.
 */
export function analyzeEmail(html: string, options: AnalyzeEmailOptions = {}): PreviewAnalysis {
  const format = resolveFormat(options.format);
  const clients = resolveClients(options.clients);
  return analyzeParsedEmail(parseEmail(html), analysisFormat(format), clients, options);
}

/**
 * What an analysis computed that the fixer's first finding ledger is made of (`findingLedgerOfAnalysis`):
 * the parse, the compatibility findings as found (before a template's findings are placed in its source),
 * the report context and the quality reports. The gate's suggested fix starts from them instead of
 * analyzing the email it just analyzed again (docs/gate.md, "Suggested fix").
 */
export interface AnalysisParts {
  parsed: ParsedEmail;
  /** The format the markup was analyzed as (`analysisFormat`). */
  format: EmailFormat;
  clients: readonly ClientId[];
  cssReport: readonly CssFinding[];
  reportContext: ReportContext;
  qualityReports: QualityReports;
  compileWarnings: readonly CompileWarning[];
}

/**
 * analyzeEmail, keeping the parts the fixer's first ledger is made of (null with `reports: false`, which
 * leaves the reports the ledger holds uncomputed). The analysis is the very same as analyzeEmail's.
 */
export function analyzeEmailKeepingParts(html: string, options: AnalyzeEmailOptions = {}): { analysis: PreviewAnalysis; parts: AnalysisParts | null } {
  const format = resolveFormat(options.format);
  const clients = resolveClients(options.clients);
  let parts: AnalysisParts | null = null;
  const analysis = analyzeParsedEmail(parseEmail(html), analysisFormat(format), clients, options, (kept) => (parts = kept));
  return { analysis, parts };
}

/** Same as analyzeEmail, for callers that already hold a ParsedEmail; `keep` receives the analysis's parts when its reports are on. */
export function analyzeParsedEmail(
  parsed: ParsedEmail,
  format: EmailFormat,
  clients: readonly ClientId[],
  options: Pick<AnalyzeEmailOptions, 'compileWarnings' | 'reports' | 'sourcePositions'> = {},
  keep?: (parts: AnalysisParts) => void,
): PreviewAnalysis {
  const { selectors, cascade, transformContext, cssReport: compiledReport } = analyzeCompatibility(parsed, format, clients);
  // A compiled template's findings point into the author's source where the element came from one.
  const cssReport = options.sourcePositions ? placeFindingsInSource(compiledReport, parsed.source, options.sourcePositions) : compiledReport;
  const compatibilityScores = scoreClients(cssReport, clients);

  const { transforms, darkMode, handovers } = renderClients(parsed, transformContext, selectors, clients);
  // The quality reports run last, once the per-client views and plans are garbage: scavenges during the
  // reports then copy only the parse, cascade and output, and the reports' own data is never alive
  // while the views allocate (measured: ~15 ms less per corpus pass than running them before the views).
  const reportContext =
    options.reports === false ? null : createReportContext({ parsed, cascade, selectors, format, clients, dropMasks: transformDropMasks(transformContext) });
  const qualityReports = reportContext ? buildQualityReports(reportContext, options.compileWarnings ?? []) : null;
  const darkContrast = reportContext ? buildDarkContrast(reportContext, handovers) : null;

  const analysis: PreviewAnalysis = {
    overallScore: overallScore(compatibilityScores),
    transforms,
    compatibilityScores,
    cssReport,
    darkMode,
    spamReport: null,
    sizeReport: null,
    linkReport: null,
    accessibilityReport: null,
    imageReport: null,
    inboxPreview: null,
    templateReport: null,
    overflowReport: null,
    visualReport: null,
    darkContrast: null,
    mobileContrast: null,
    designReport: null,
    vmlReport: null,
    plainText: null,
  };
  if (!qualityReports || !darkContrast || !reportContext) return analysis;
  keep?.({ parsed, format, clients, cssReport: compiledReport, reportContext, qualityReports, compileWarnings: options.compileWarnings ?? [] });
  return { ...analysis, ...qualityReports, darkContrast };
}
