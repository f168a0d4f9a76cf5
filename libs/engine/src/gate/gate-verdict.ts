/**
 * The pre-send gate's verdict (POST /api/gate, docs/engine.md "The gate verdict") from a preview result,
 * an optional stored baseline and optional link-check results. Pure: the worker fetches links and reads
 * baselines, this decides.
 */
import type { ImageEntry, ImageReport } from '../reports/image-report';
import type { LinkEntry, LinkReport } from '../reports/link-report';
import { GMAIL_CLIP_LIMIT_BYTES, type SizeReport } from '../reports/size-report';
import { buildReports } from '../reports/build-reports';
import { diffAnalyses } from './diff-analyses';
import { compareStrings, findingKey, gateSnapshot, meanScore, type BlockingSeverity, type GateResult, type GateSnapshot } from './gate-snapshot';
import { messageCheck, type BulkSenderFailure, type MessageNote } from './message-check';
import { visualCheck, type GateVisualSnapshot, type VisualNote, type VisualRegressionFailure } from './visual-check';

export type GateCheckFamily = 'compatibility' | 'content' | 'regression' | 'message' | 'visual';
/** The families in canonical order (the order of a verdict's failures and `checks`). */
export const GATE_CHECK_FAMILIES: readonly GateCheckFamily[] = ['compatibility', 'content', 'regression', 'message', 'visual'];
/** The families run when a request names none: every family but `visual`, which is opt-in (it paints the email and needs a ref). */
export const GATE_DEFAULT_CHECKS: readonly GateCheckFamily[] = ['compatibility', 'content', 'regression', 'message'];

/** Why a check that ran passed without judging everything: the message check's and the visual check's. */
export type GateNote = MessageNote | VisualNote;

export const GATE_DEFAULT_THRESHOLD = 70;

export interface GateOptions {
  /** 0-100; a checked client scoring below it fails. Default 70. */
  threshold?: number;
  /** Families to run. Default `GATE_DEFAULT_CHECKS` (all but visual). Leave 'regression' and 'visual' out for a run without a ref. */
  checks?: readonly GateCheckFamily[];
  /** Client ids to check; default every client of the snapshot. Ids the snapshot lacks are ignored. */
  clients?: readonly string[] | null;
  /** Whether a client with one or more errors fails. Default true. */
  failOnError?: boolean;
  /** The request says the mail is bulk: the message check holds it to the bulk-sender requirements even without List-Unsubscribe. */
  bulk?: boolean;
  /** The visual check's allowed growth of a client's divergence (points); default `GATE_VISUAL_DEFAULT_THRESHOLD`. */
  visualThreshold?: number;
}

export interface GateBaseline {
  snapshot: GateSnapshot;
  /** The stored baseline's creation time (ISO 8601), echoed as `comparedTo`. */
  createdAt: string;
}

/** A fetched link: `status` is the HTTP status, null when none arrived (never a failure). */
export interface CheckedLink {
  url: string;
  status: number | null;
}

export interface GateVerdictInput {
  /** The preview result (stored JSON or `PreviewAnalysis`): scores, findings and the content reports. */
  result: GateResult;
  /** `gateSnapshot(result)` when the caller already has it (to store it as the next baseline). */
  snapshot?: GateSnapshot;
  /** The analyzed (compiled) HTML. Read only when the result's link, size or image report is null. */
  html?: string;
  options?: GateOptions;
  /** The stored baseline for the ref; null or absent: the regression check passes with nothing to compare. */
  baseline?: GateBaseline | null;
  /** Results of link resolution (resolveLinks: true). */
  links?: { checked: readonly CheckedLink[] } | null;
  /** The visual check's input: this version's divergence and reference fingerprint, and the baseline's (null: none stored). */
  visual?: { current: GateVisualSnapshot | null; baseline: GateVisualSnapshot | null } | null;
}

export type LinkFailureReason = 'empty' | 'javascript' | 'placeholder';

export interface ThresholdFailure {
  family: 'compatibility';
  check: 'threshold';
  clientId: string;
  score: number;
  threshold: number;
}
export interface ClientErrorsFailure {
  family: 'compatibility';
  check: 'client-errors';
  clientId: string;
  errors: number;
}
export interface LinksFailure {
  family: 'content';
  check: 'links';
  href: string;
  reason: LinkFailureReason;
}
export interface SizeFailure {
  family: 'content';
  check: 'size';
  bytes: number;
  limit: number;
}
export interface AltTextFailure {
  family: 'content';
  check: 'alt-text';
  src: string;
}
export interface LinkUnreachableFailure {
  family: 'content';
  check: 'link-unreachable';
  url: string;
  status: number;
}
export interface WorseThanBaselineFailure {
  family: 'regression';
  check: 'worse-than-baseline';
  clientId?: string;
  property?: string;
  rule?: string;
  severity: BlockingSeverity;
}

export type GateFailure =
  | ThresholdFailure
  | ClientErrorsFailure
  | LinksFailure
  | SizeFailure
  | AltTextFailure
  | LinkUnreachableFailure
  | WorseThanBaselineFailure
  | BulkSenderFailure
  | VisualRegressionFailure;

export interface GateVerdict {
  passed: boolean;
  /** round(mean of the checked clients' scores); 100 with no checked client. */
  overallScore: number;
  /** Lowest-scoring checked client (ties: first id in code-unit order); null with no checked client. */
  worstClient: string | null;
  /** In family order (compatibility, content, regression, message, visual); see docs/engine.md "The gate verdict". */
  failures: GateFailure[];
  /** Why a check that ran passed without judging everything (the message check's: not a message, not bulk, undecided requirements). Never block. */
  notes: GateNote[];
  /** The families that ran, in canonical order. */
  checks: GateCheckFamily[];
  /** The baseline's createdAt when the regression check compared against one, else null. */
  comparedTo: string | null;
}

/** Images whose declared width or height is at most this many pixels are pixels or spacers, not content. */
export const GATE_SPACER_MAX_PX = 2;

function checkedClients(snapshot: GateSnapshot, wanted: readonly string[] | null | undefined): string[] {
  const all = Object.keys(snapshot.clients);
  if (!wanted) return all.sort(compareStrings);
  const present = new Set(all);
  return [...new Set(wanted)].filter((id) => present.has(id)).sort(compareStrings);
}

function compatibilityFailures(snapshot: GateSnapshot, clients: readonly string[], threshold: number, failOnError: boolean): GateFailure[] {
  const failures: GateFailure[] = [];
  for (const clientId of clients) {
    const { score, errors } = snapshot.clients[clientId];
    if (score < threshold) failures.push({ family: 'compatibility', check: 'threshold', clientId, score, threshold });
    if (failOnError && errors >= 1) failures.push({ family: 'compatibility', check: 'client-errors', clientId, errors });
  }
  return failures;
}

/** Why a link goes nowhere, from the link report's own rules; null for a link that goes somewhere (merge tags included). */
export function linkFailureReason(link: Pick<LinkEntry, 'rules' | 'scheme' | 'host'>): LinkFailureReason | null {
  if (link.rules.includes('empty-href')) return 'empty';
  if (link.rules.includes('javascript-href')) return 'javascript';
  if (link.rules.includes('placeholder-href')) return 'placeholder';
  // http(s) with no host ("http:///", "https://?x"): the report calls it malformed; it is a placeholder.
  if ((link.scheme === 'http' || link.scheme === 'https') && !link.host) return 'placeholder';
  return null;
}

/** A real image without an alt attribute: the image report's `missing-alt` (not hidden, not a tracking pixel), not a spacer. */
export function lacksAltText(image: Pick<ImageEntry, 'kind' | 'rules' | 'width' | 'height'>): boolean {
  if (image.kind === 'background' || !image.rules.includes('missing-alt')) return false;
  const tiny = (length: number | null) => length !== null && length <= GATE_SPACER_MAX_PX;
  return !tiny(image.width) && !tiny(image.height);
}

interface ContentReports {
  linkReport: LinkReport | null;
  sizeReport: SizeReport | null;
  imageReport: ImageReport | null;
}

function contentReports(result: GateResult, html: string | undefined): ContentReports {
  const reports: ContentReports = { linkReport: result.linkReport ?? null, sizeReport: result.sizeReport ?? null, imageReport: result.imageReport ?? null };
  if ((reports.linkReport && reports.sizeReport && reports.imageReport) || html === undefined) return reports;
  const built = buildReports(html, { format: 'html', clients: [] });
  return {
    linkReport: reports.linkReport ?? built.linkReport,
    sizeReport: reports.sizeReport ?? built.sizeReport,
    imageReport: reports.imageReport ?? built.imageReport,
  };
}

function contentFailures(reports: ContentReports, checked: readonly CheckedLink[]): GateFailure[] {
  const failures: GateFailure[] = [];
  const seenLinks = new Set<string>();
  for (const link of reports.linkReport?.links ?? []) {
    const reason = linkFailureReason(link);
    if (reason === null) continue;
    const key = `${reason}\u0000${link.href}`;
    if (seenLinks.has(key)) continue;
    seenLinks.add(key);
    failures.push({ family: 'content', check: 'links', href: link.href, reason });
  }
  const size = reports.sizeReport;
  if (size) {
    const limit = typeof size.limit === 'number' ? size.limit : GMAIL_CLIP_LIMIT_BYTES;
    if (size.bytes > limit) failures.push({ family: 'content', check: 'size', bytes: size.bytes, limit });
  }
  const seenImages = new Set<string>();
  for (const image of reports.imageReport?.images ?? []) {
    if (!lacksAltText(image) || seenImages.has(image.src)) continue;
    seenImages.add(image.src);
    failures.push({ family: 'content', check: 'alt-text', src: image.src });
  }
  const unreachable = new Map<string, number>();
  for (const { url, status } of checked) {
    if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 && !unreachable.has(url)) unreachable.set(url, status);
  }
  for (const url of [...unreachable.keys()].sort(compareStrings)) {
    failures.push({ family: 'content', check: 'link-unreachable', url, status: unreachable.get(url) as number });
  }
  return failures;
}

/**
 * Every error or warning the baseline did not have, on the checked clients both analyses cover.
 * A warning on a property the baseline had as an error is a downgrade (an improvement), not a regression.
 */
function regressionFailures(baseline: GateSnapshot, snapshot: GateSnapshot, clients: readonly string[]): GateFailure[] {
  const checked = new Set(clients);
  const baselineKeys = new Set(baseline.findings.map(findingKey));
  const failures: GateFailure[] = [];
  for (const client of diffAnalyses(baseline, snapshot).clients) {
    if (client.presence !== 'both' || !checked.has(client.clientId)) continue;
    for (const finding of client.introduced) {
      if (finding.severity === 'warning' && baselineKeys.has(findingKey({ ...finding, severity: 'error' }))) continue;
      const failure: WorseThanBaselineFailure = {
        family: 'regression',
        check: 'worse-than-baseline',
        clientId: finding.clientId,
        property: finding.property,
        severity: finding.severity,
      };
      if (finding.rule !== undefined) failure.rule = finding.rule;
      failures.push(failure);
    }
  }
  return failures;
}

export function gateVerdict(input: GateVerdictInput): GateVerdict {
  const options = input.options ?? {};
  const threshold = options.threshold ?? GATE_DEFAULT_THRESHOLD;
  const failOnError = options.failOnError ?? true;
  const requested = new Set(options.checks ?? GATE_DEFAULT_CHECKS);
  const checks = GATE_CHECK_FAMILIES.filter((family) => requested.has(family));
  const snapshot = input.snapshot ?? gateSnapshot(input.result);
  const clients = checkedClients(snapshot, options.clients);

  const failures: GateFailure[] = [];
  const notes: GateNote[] = [];
  let comparedTo: string | null = null;
  if (requested.has('compatibility')) failures.push(...compatibilityFailures(snapshot, clients, threshold, failOnError));
  if (requested.has('content')) failures.push(...contentFailures(contentReports(input.result, input.html), input.links?.checked ?? []));
  if (requested.has('regression') && input.baseline) {
    failures.push(...regressionFailures(input.baseline.snapshot, snapshot, clients));
    comparedTo = input.baseline.createdAt;
  }
  if (requested.has('message')) {
    const message = messageCheck(input.result.messageReport, options.bulk === true);
    failures.push(...message.failures);
    notes.push(...message.notes);
  }
  if (requested.has('visual')) {
    const visual = visualCheck(input.visual?.current ?? null, input.visual?.baseline ?? null, { clients, threshold: options.visualThreshold });
    failures.push(...visual.failures);
    notes.push(...visual.notes);
  }

  let worstClient: string | null = null;
  for (const clientId of clients) {
    if (worstClient === null || snapshot.clients[clientId].score < snapshot.clients[worstClient].score) worstClient = clientId;
  }
  return {
    passed: failures.length === 0,
    overallScore: meanScore(clients.map((clientId) => snapshot.clients[clientId].score)),
    worstClient,
    failures,
    notes,
    checks,
    comparedTo,
  };
}
