import type { ClientId } from '../clients/email-client';
import type { CompileWarning } from '../compile/compile-format';
import type { SourcePosition } from '../compile/source-positions';
import type { CodeFix, EmailFormat } from '../fixes/code-fix';
import type { ParsedEmail } from '../parse/parse-email';
import type { ReportContext } from '../reports/context/report-context';
import type { FindingLedger, FindingTarget, FixTally, IntroducedFinding } from './finding-ledger';

export type { FindingTarget, FixTally, IntroducedFinding } from './finding-ledger';

/** `safe`: invisible outside the clients a fix helps, applied by default. `layout`: visible changes, opt-in. */
export type FixTier = 'safe' | 'layout';

export const FIX_TIERS: readonly FixTier[] = ['safe', 'layout'];

/** Replace `[start, end)` of the source with `text` (an insertion when start === end). Offsets are string indexes. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** One place a rule would change: its edits are applied (and rolled back) together. */
export interface FixCandidate {
  rule: string;
  /** 1-based line of the first edit in the submitted markup. */
  line: number;
  edits: TextEdit[];
  /** What this change does, for the answer and the CLI. */
  description: string;
}

/** A place a rule looked at and left alone, with the reason (a content image needs words only its author knows). */
export interface FixRefusal {
  rule: string;
  line: number;
  reason: string;
}

export interface FixRuleContext {
  parsed: ParsedEmail;
  report: ReportContext;
  clients: readonly ClientId[];
  /** The findings of the email as submitted. */
  before: FindingLedger;
}

export interface FixRuleOutput {
  candidates: FixCandidate[];
  refusals: FixRefusal[];
}

/**
 * One deterministic fix. `find` reads the parse and proposes byte-range edits; it never re-prints
 * markup, so everything it does not name stays byte-identical. Applying the edits and finding again
 * must propose nothing (idempotence).
 */
export interface FixRule {
  id: string;
  tier: FixTier;
  /** The findings this rule resolves (for `clients` in the answer and for check:fix's resolved share). */
  resolves: readonly FindingTarget[];
  /** Clients it helps when it resolves no finding of theirs (Word for the Office settings block). */
  helps?: readonly ClientId[];
  find(context: FixRuleContext): FixRuleOutput;
}

export interface FixEmailOptions {
  format?: EmailFormat;
  clients?: readonly ClientId[];
  tiers?: readonly FixTier[];
  compileWarnings?: readonly CompileWarning[];
  /** jsx, mjml, maizzle: where the compiled elements came from in the template's source. */
  sourcePositions?: readonly SourcePosition[];
  /** mjml: the template as written, so that value fixes can be written into it (`patched: 'source'`). */
  templateSource?: string;
}

export interface AppliedFix {
  /** `<rule>@<line>`, unique in one answer (a second change of a rule on one line gets `#2`). */
  id: string;
  rule: string;
  tier: FixTier;
  /** Requested clients with a finding this fix resolved; every requested client for fixes that help readers (role, alt). */
  clients: ClientId[];
  line: number;
  description: string;
  /** jsx, mjml, maizzle: how to write this fix in the framework, so the next build keeps it. */
  snippet?: CodeFix;
}

export interface SkippedFix {
  rule: string;
  line: number;
  reason: string;
}

export interface FixResult {
  /**
   * The patched email: the submitted text with the fixes in it when `patched` is `source` (HTML, or an MJML
   * template whose fixes were all written into its source), else the compiled HTML with the fixes.
   */
  html: string;
  /** What `html` is: the submitted source patched, or the compiled HTML (jsx, Maizzle, MJML fixes the source cannot take). */
  patched: 'source' | 'compiled-html';
  /** Unified diff from the submitted source (or the compiled HTML) to `html`; empty when nothing was applied. */
  diff: string;
  applied: AppliedFix[];
  skipped: SkippedFix[];
  before: FixTally;
  after: FixTally;
  introduced: IntroducedFinding[];
  /** Findings resolved by the applied fixes, by rule (for check:fix and the CLI summary). */
  resolved: Record<string, number>;
}
