import { createTwoFilesPatch } from 'diff';
import { EngineInputError, analysisFormat, resolveClients, resolveFormat, type AnalysisParts } from '../analyze-email';
import type { ClientId } from '../clients/email-client';
import type { EmailFormat } from '../fixes/code-fix';
import { parseEmail } from '../parse/parse-email';
import { FindingLedger, buildFindingLedger, findingLedgerOfAnalysis } from './finding-ledger';
import { FIX_RULES } from './fix-rules';
import { AppliedFix, FIX_TIERS, FixCandidate, FixEmailOptions, FixResult, FixRule, FixTier, SkippedFix } from './fix-model';
import { frameworkSnippet } from './framework-snippets';
import { patchMjmlSource } from './template-source';
import { applyCandidates, partitionCandidates } from './text-edits';

/**
 * Passes over the email: another pass follows one that kept something or deferred an overlapping edit (it
 * costs an analysis only when it finds something to apply).
 */
const MAX_PASSES = 3;

/**
 * Analyses one call may spend in all (the first and every verification): a hostile email whose fixes all
 * fail verification costs at most this many analyses; what is left unverified then is rolled back.
 */
export const MAX_FIX_ANALYSES = 48;

function resolveTiers(tiers: readonly string[] | undefined): FixTier[] {
  if (tiers === undefined || tiers.length === 0) return ['safe'];
  const unknown = tiers.filter((tier) => !(FIX_TIERS as readonly string[]).includes(tier));
  if (unknown.length > 0) throw new EngineInputError(`Unknown fix tier(s): ${unknown.join(', ')}. Valid tiers: ${FIX_TIERS.join(', ')}.`, 'tiers', FIX_TIERS);
  return FIX_TIERS.filter((tier) => tiers.includes(tier));
}

interface FixSession {
  format: EmailFormat;
  clients: ClientId[];
  rules: FixRule[];
  options: FixEmailOptions;
  applied: AppliedFix[];
  skipped: SkippedFix[];
  analysesLeft: number;
  /** Candidates rolled back in an earlier pass, by what they replace and write (a later pass proposes them again). */
  rolledBack: Map<string, number>;
}

/** What a candidate replaces and writes, independent of where the text has moved since. */
function candidateSignature(source: string, candidate: FixCandidate): string {
  return `${candidate.rule}\u0000${candidate.edits.map((edit) => `${source.slice(edit.start, edit.end)}\u0001${edit.text}`).join('\u0002')}`;
}

function rollBack(session: FixSession, source: string, group: readonly FixCandidate[], reason: string): void {
  for (const candidate of group) {
    session.skipped.push({ rule: candidate.rule, line: candidate.line, reason });
    const signature = candidateSignature(source, candidate);
    session.rolledBack.set(signature, (session.rolledBack.get(signature) ?? 0) + 1);
  }
}

/** Drops the candidates an earlier pass rolled back already: they are listed once and never verified twice. */
function withoutRolledBack(session: FixSession, source: string, candidates: readonly FixCandidate[]): FixCandidate[] {
  if (session.rolledBack.size === 0) return [...candidates];
  const left = new Map(session.rolledBack);
  return candidates.filter((candidate) => {
    const signature = candidateSignature(source, candidate);
    const count = left.get(signature) ?? 0;
    if (count === 0) return true;
    left.set(signature, count - 1);
    return false;
  });
}

function ledgerOf(session: FixSession, html: string): FindingLedger {
  session.analysesLeft--;
  return buildFindingLedger(parseEmail(html), session.format, session.clients, session.options.compileWarnings);
}

/**
 * The email's findings before any fix: from the caller's analysis of this very email when it has one for the
 * same format and clients (the gate's suggested fix: the analysis it just made), else by analyzing it. Either
 * way it counts as the call's first analysis, so the budget, and every outcome, is the same.
 */
function firstLedger(session: FixSession, html: string, analyzed: AnalysisParts | undefined): FindingLedger {
  if (
    analyzed &&
    analyzed.parsed.source === html &&
    analyzed.format === analysisFormat(session.format) &&
    analyzed.clients.length === session.clients.length &&
    analyzed.clients.every((client, index) => client === session.clients[index])
  ) {
    session.analysesLeft--;
    return findingLedgerOfAnalysis(analyzed, session.options.compileWarnings);
  }
  return ledgerOf(session, html);
}

function describeIntroduced(ledger: FindingLedger, earlier: FindingLedger): string | undefined {
  const introduced = ledger.introducedSince(earlier);
  if (introduced.length === 0) return undefined;
  const first = introduced[0];
  const where = first.client ? ` for ${first.client}` : '';
  const more = introduced.length > 1 ? ` (and ${introduced.length - 1} more)` : '';
  return `rolled back: it would introduce the ${first.severity} ${first.rule}${where}${more}`;
}

/** Analyses one rule's bisection may spend before its remaining suspects are rolled back together. */
const BISECTION_BUDGET = 16;

interface VerifiedState {
  html: string;
  ledger: FindingLedger;
  kept: FixCandidate[];
}

/**
 * Keeps `group` when applying it (with what is kept already) introduces nothing; otherwise halves it and
 * tries each half, down to single candidates, while the budget lasts. What fails is rolled back with the
 * finding it would introduce.
 */
function keepIfClean(session: FixSession, original: string, state: VerifiedState, group: FixCandidate[], budget: { left: number }, suspicion?: string): void {
  if (session.analysesLeft <= 0 || budget.left <= 0) {
    const reason = suspicion
      ? `${suspicion} (tried together with ${group.length - 1} other change${group.length === 2 ? '' : 's'} of the rule; the rule's verification budget ran out)`
      : `not applied: this request's ${MAX_FIX_ANALYSES} analyses ran out before the fix could be verified`;
    rollBack(session, original, group, reason);
    return;
  }
  budget.left--;
  // Edits name ranges of `original`, so each trial applies the kept candidates and this group to it.
  const trial = applyCandidates(original, [...state.kept, ...group]);
  const trialLedger = ledgerOf(session, trial);
  const reason = describeIntroduced(trialLedger, state.ledger);
  if (!reason) {
    state.kept.push(...group);
    state.html = trial;
    state.ledger = trialLedger;
    return;
  }
  if (group.length === 1) {
    rollBack(session, original, group, reason);
    return;
  }
  const half = Math.ceil(group.length / 2);
  keepIfClean(session, original, state, group.slice(0, half), budget, reason);
  keepIfClean(session, original, state, group.slice(half), budget, reason);
}

/**
 * Applies the rules' accepted candidates together; when the result has a finding the email did not,
 * applies them again rule by rule (bisecting a rule's candidates) and keeps only what introduces nothing.
 */
function applyVerified(session: FixSession, html: string, before: FindingLedger, accepted: FixCandidate[]): VerifiedState {
  const together = applyCandidates(html, accepted);
  const ledger = ledgerOf(session, together);
  if (ledger.introducedSince(before).length === 0) return { html: together, ledger, kept: accepted };
  const state: VerifiedState = { html, ledger: before, kept: [] };
  for (const rule of session.rules) {
    const group = accepted.filter((candidate) => candidate.rule === rule.id);
    if (group.length > 0) keepIfClean(session, html, state, group, { left: BISECTION_BUDGET });
  }
  return state;
}

function helpedClients(rule: FixRule, before: FindingLedger, after: FindingLedger, clients: readonly ClientId[]): ClientId[] {
  const cssTargets = rule.resolves.filter((target) => target.report === 'css');
  if (cssTargets.length === 0) return rule.helps ? clients.filter((client) => rule.helps?.includes(client)) : [...clients];
  return clients.filter((client) => cssTargets.some((target) => after.count(target, client) < before.count(target, client)));
}

function recordApplied(session: FixSession, kept: readonly FixCandidate[], before: FindingLedger, after: FindingLedger): void {
  const used = new Map<string, number>();
  for (const candidate of kept) {
    const rule = session.rules.find((r) => r.id === candidate.rule) as FixRule;
    const base = `${candidate.rule}@${candidate.line}`;
    const count = (used.get(base) ?? 0) + 1;
    used.set(base, count);
    session.applied.push({
      id: count === 1 ? base : `${base}#${count}`,
      rule: candidate.rule,
      tier: rule.tier,
      clients: helpedClients(rule, before, after, session.clients),
      line: candidate.line,
      description: candidate.description,
    });
    const snippet = frameworkSnippet(candidate.rule, session.format);
    if (snippet) session.applied[session.applied.length - 1].snippet = snippet;
  }
}

function resolvedByRule(rules: readonly FixRule[], first: FindingLedger, last: FindingLedger): Record<string, number> {
  const resolved: Record<string, number> = {};
  for (const rule of rules) {
    let count = 0;
    for (const target of rule.resolves) count += Math.max(0, first.count(target) - last.count(target));
    if (count > 0) resolved[rule.id] = count;
  }
  return resolved;
}

/**
 * The patched email and its diff: the source itself for HTML; for MJML the template with the fixes written
 * into it when they are all value edits it holds once (template-source.ts), else the compiled HTML.
 */
function patchedEmail(session: FixSession, html: string, current: string, keptByPass: readonly FixCandidate[][]): Pick<FixResult, 'html' | 'patched' | 'diff'> {
  const { format, options } = session;
  // Edits of a later pass name offsets of an earlier pass's output: only one pass's edits map onto the compiled HTML.
  if (format === 'mjml' && options.templateSource !== undefined && keptByPass.length === 0)
    return { html: options.templateSource, patched: 'source', diff: '' };
  if (format === 'mjml' && options.templateSource !== undefined && keptByPass.length === 1) {
    const patch = patchMjmlSource(options.templateSource, html, options.sourcePositions ?? [], keptByPass[0]);
    if (patch !== undefined) {
      // The applied fixes are the kept candidates in order: they now point at the template's lines.
      const used = new Map<string, number>();
      session.applied.forEach((fix, index) => {
        fix.line = patch.lines[index] ?? fix.line;
        const base = `${fix.rule}@${fix.line}`;
        const count = (used.get(base) ?? 0) + 1;
        used.set(base, count);
        fix.id = count === 1 ? base : `${base}#${count}`;
      });
      const diff = createTwoFilesPatch('email.mjml', 'email.mjml', options.templateSource, patch.source, 'submitted', 'fixed');
      return { html: patch.source, patched: 'source', diff };
    }
  }
  const name = format === 'html' ? 'email.html' : 'compiled.html';
  return {
    html: current,
    patched: format === 'html' ? 'source' : 'compiled-html',
    diff: current === html ? '' : createTwoFilesPatch(name, name, html, current, 'submitted', 'fixed'),
  };
}

/** What the passes leave: the first and the last ledger, the fixed text, and the candidates each pass kept. */
interface FixPasses {
  first: FindingLedger;
  ledger: FindingLedger;
  current: string;
  keptByPass: FixCandidate[][];
}

function startSession(options: FixEmailOptions): FixSession {
  // Validated in this order, as the answer's first error names the first bad option.
  const format = resolveFormat(options.format);
  const clients = resolveClients(options.clients);
  const tiers = resolveTiers(options.tiers);
  return {
    format,
    clients,
    rules: FIX_RULES.filter((rule) => tiers.includes(rule.tier)),
    options,
    applied: [],
    skipped: [],
    analysesLeft: MAX_FIX_ANALYSES,
    rolledBack: new Map(),
  };
}

/**
 * The passes over the email, each applying what the rules find and verifying it by analysis. `describe`
 * false leaves the applied fixes undescribed (`session.applied` stays empty): which fixes are kept, and so
 * every ledger, is the same either way.
 */
function runPasses(session: FixSession, html: string, describe: boolean, analyzed?: AnalysisParts): FixPasses {
  const first = firstLedger(session, html, analyzed);
  let current = html;
  let ledger = first;
  // The passes that kept something, each with edits of the text the pass started from.
  const keptByPass: FixCandidate[][] = [];
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const candidates: FixCandidate[] = [];
    const refusals: SkippedFix[] = [];
    for (const rule of session.rules) {
      const output = rule.find({ parsed: ledger.parsed, report: ledger.report, clients: session.clients, before: ledger });
      candidates.push(...output.candidates);
      refusals.push(...output.refusals);
    }
    if (pass === 0) session.skipped.push(...refusals);
    const { accepted, deferred } = partitionCandidates(withoutRolledBack(session, current, candidates));
    if (accepted.length === 0 || session.analysesLeft <= 0) break;
    const outcome = applyVerified(session, current, ledger, accepted);
    if (describe) recordApplied(session, outcome.kept, ledger, outcome.ledger);
    if (outcome.kept.length > 0) keptByPass.push(outcome.kept);
    current = outcome.html;
    ledger = outcome.ledger;
    // Another pass when something waited for an overlapping fix, or when a kept fix wrote text another rule
    // completes (a resolved var() font stack gets its generic family): finding on the result costs no analysis.
    if (deferred.length === 0 && outcome.kept.length === 0) break;
  }
  return { first, ledger, current, keptByPass };
}

/**
 * The email with the requested tiers' fixes applied, each proven by analysing the result again:
 * a rule whose edits would introduce an error or warning for a requested client is rolled back and
 * listed in `skipped`. Edits are byte ranges of the submitted text (docs/fix.md). `analyzed`: the parts of an
 * analysis of `html` the caller made already (analyzeEmailKeepingParts), which spare the first analysis.
 */
export function fixEmail(html: string, options: FixEmailOptions = {}, analyzed?: AnalysisParts): FixResult {
  const session = startSession(options);
  const { first, ledger, current, keptByPass } = runPasses(session, html, true, analyzed);
  session.skipped.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  return {
    ...patchedEmail(session, html, current, keptByPass),
    applied: session.applied,
    skipped: session.skipped,
    before: first.tally(),
    after: ledger.tally(),
    introduced: ledger.introducedSince(first),
    resolved: resolvedByRule(session.rules, first, ledger),
  };
}

/**
 * `fixEmail(html, options).resolved` without the rest of the answer: the same passes, the same verification
 * analyses and so the same count, but no description of the applied fixes (their clients, ids, snippets),
 * no patched template and no diff, which the gate's suggested fix never reads (docs/gate.md).
 */
export function resolvedByFixes(html: string, options: FixEmailOptions = {}, analyzed?: AnalysisParts): Record<string, number> {
  const session = startSession(options);
  const { first, ledger } = runPasses(session, html, false, analyzed);
  return resolvedByRule(session.rules, first, ledger);
}
