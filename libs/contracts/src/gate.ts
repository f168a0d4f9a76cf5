/**
 * What a gate run stores and answers (docs/gate.md): the request options (gate_runs.request), link
 * resolution's findings (gate_runs.links), the verdict (gate_runs.verdict, returned with the run's ids)
 * and the baseline snapshot (gate_baselines.snapshot). The email itself is the run's preview (html) or
 * fetched by gate.import (url).
 */
import type { GateCheckFamily, GateFailure, GateNote, GateSuggestedFix, GateVerdict } from '@mailproof/engine';

// The check families, the default threshold, the failures and the snapshot are the engine's (its gate verdict defines them).
export { GATE_CHECK_FAMILIES, GATE_DEFAULT_CHECKS, GATE_DEFAULT_THRESHOLD, GATE_VISUAL_DEFAULT_THRESHOLD } from '@mailproof/engine';
export type {
  AltTextFailure,
  BlockingSeverity,
  BulkSenderFailure,
  ClientErrorsFailure,
  GateCheckFamily,
  GateFailure,
  GateFinding,
  GateNote,
  GateSnapshot,
  GateSuggestedFix,
  GateSuggestedFixRequest,
  LinkFailureReason,
  LinksFailure,
  LinkUnreachableFailure,
  SizeFailure,
  ThresholdFailure,
  WorseThanBaselineFailure,
  GateVisualSnapshot,
  MessageNote,
  ReferenceFingerprint,
  VisualNote,
  VisualRegion,
  VisualRegressionFailure,
  VisualScheme,
} from '@mailproof/engine';

export const UPDATE_BASELINE_MODES = ['on-pass', 'always', 'never'] as const;
export type UpdateBaselineMode = (typeof UPDATE_BASELINE_MODES)[number];

/** A stable name of an email: 1-200 letters, digits and . _ / - : @ */
export const GATE_REF_PATTERN = /^[A-Za-z0-9._/:@-]{1,200}$/;

/** Distinct URLs link resolution checks at most; the rest are reported unchecked (cap). */
export const GATE_MAX_LINKS = 25;
/** Link resolution adds at most this much to a run. */
export const GATE_LINKS_MAX_MS = 10_000;

/** The request's options with every default applied, as the API stores them on a run (gate_runs.request). */
export interface GateRunOptions {
  /** Where the email came from: the request's html (stored as the preview's source) or a URL to import. */
  source: 'html' | 'url';
  url: string | null;
  format: 'html' | 'jsx' | 'mjml' | 'maizzle' | 'eml';
  threshold: number;
  checks: GateCheckFamily[];
  /** The clients checked; all 21 when the request named none. */
  clients: string[];
  failOnError: boolean;
  updateBaseline: UpdateBaselineMode;
  resolveLinks: boolean;
  /** The visual check's allowed growth of a client's divergence (points); absent on runs stored before it existed, and without `visual`. */
  visualThreshold?: number;
  /** The request said the mail is bulk (`bulk: true`): the message check holds it to the bulk-sender requirements. Absent on runs stored before it existed (false). */
  bulk?: boolean;
}

export type UncheckedLinkReason = 'cap' | 'budget' | 'declined' | 'error';

/** What link resolution reports on a verdict: whether it ran, how many links it checked, and what it could not. */
export interface GateLinks {
  resolved: boolean;
  checked: number;
  unchecked: Array<{ url: string; reason: UncheckedLinkReason }>;
}

/**
 * Link resolution's findings as the links.resolve step stores them (gate_runs.links): net-guard's
 * `LinkResolution`, written out here because contracts depend on no lib but the engine (the worker
 * stores net-guard's value as this type, so the compiler checks that the two agree).
 */
export interface StoredLinkResolution {
  /** Links that answered: the final status (after redirects) and, when redirected, where it ended. */
  checked: Array<{ url: string; status: number; finalUrl?: string }>;
  unchecked: Array<{ url: string; reason: UncheckedLinkReason; detail?: string }>;
}

/** The ref a verdict is about and the stored baseline's creation time it was compared with (null: no comparison). */
export interface GateVerdictBaseline {
  ref: string | null;
  comparedTo: string | null;
}

/** A run's verdict as the verdict step stores it (gate_runs.verdict): the engine's verdict with the baseline and links reported. */
export interface StoredGateVerdict extends Pick<GateVerdict, 'passed' | 'overallScore' | 'worstClient' | 'checks'> {
  baseline: GateVerdictBaseline;
  failures: GateFailure[];
  /** Why a check passed without judging everything (the message check's notes); absent on verdicts stored before notes existed. */
  notes?: GateNote[];
  links: GateLinks;
  /**
   * Only on verdicts stored before the suggested fix became a follow-up job (gate_runs.suggested_fix holds
   * it since): a failed verdict whose email the safe fixes improve.
   */
  suggestedFix?: GateSuggestedFix;
}

/** A failed verdict's suggested fix that the follow-up job (gate.suggest-fix) has not settled yet. */
export interface GateSuggestedFixPending {
  pending: true;
}

/**
 * The gate verdict as POST /api/gate, GET /api/gate/runs/:id and the MCP tool gate_email return it: the
 * stored verdict with the run's id and the analyzed email's preview id (null once that preview was deleted).
 */
export interface GateVerdictResult extends Omit<StoredGateVerdict, 'suggestedFix'> {
  /**
   * A failed verdict whose email the safe fixes improve: how many findings they resolve and the POST /api/fix
   * request that applies them; `{ pending: true }` while the follow-up job computes it (the verdict does not
   * wait for it: GET /api/gate/runs/:id carries it once known). Absent on a passed verdict and when no safe
   * fix resolves a finding.
   */
  suggestedFix?: GateSuggestedFix | GateSuggestedFixPending;
  runId: string;
  previewId: string | null;
}

/** Whether a verdict's suggestedFix is still being computed. */
export function isSuggestedFixPending(suggestedFix: GateVerdictResult['suggestedFix']): suggestedFix is GateSuggestedFixPending {
  return suggestedFix !== undefined && 'pending' in suggestedFix && suggestedFix.pending === true;
}
