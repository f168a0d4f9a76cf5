/**
 * The gate's request options as the API stores them on a run (gate_runs.request) and the job chain
 * reads them. The email itself is the run's preview (html) or fetched by gate.import (url).
 */
import type { GateCheckFamily } from '@mailproof/engine';

// The check families and the default threshold are the engine's (its gate verdict defines them).
export { GATE_CHECK_FAMILIES, GATE_DEFAULT_THRESHOLD } from '@mailproof/engine';
export type { GateCheckFamily } from '@mailproof/engine';

export const UPDATE_BASELINE_MODES = ['on-pass', 'always', 'never'] as const;
export type UpdateBaselineMode = (typeof UPDATE_BASELINE_MODES)[number];

/** A stable name of an email: 1-200 letters, digits and . _ / - : @ */
export const GATE_REF_PATTERN = /^[A-Za-z0-9._/:@-]{1,200}$/;

/** Distinct URLs link resolution checks at most; the rest are reported unchecked (cap). */
export const GATE_MAX_LINKS = 25;
/** Link resolution adds at most this much to a run. */
export const GATE_LINKS_MAX_MS = 10_000;

export interface GateRunOptions {
  /** Where the email came from: the request's html (stored as the preview's source) or a URL to import. */
  source: 'html' | 'url';
  url: string | null;
  format: 'html' | 'jsx' | 'mjml' | 'maizzle';
  threshold: number;
  checks: GateCheckFamily[];
  /** The clients checked; all 21 when the request named none. */
  clients: string[];
  failOnError: boolean;
  updateBaseline: UpdateBaselineMode;
  resolveLinks: boolean;
}

export type UncheckedLinkReason = 'cap' | 'budget' | 'declined' | 'error';

/** What link resolution reports on a verdict: whether it ran, how many links it checked, and what it could not. */
export interface GateLinks {
  resolved: boolean;
  checked: number;
  unchecked: Array<{ url: string; reason: UncheckedLinkReason }>;
}
