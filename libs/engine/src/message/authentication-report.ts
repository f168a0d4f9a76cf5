import { isInconclusive } from '../dns/audit-domain';
import type { DeliverabilityResult } from '../dns/deliverability-result';
import { isValidDkimSelector } from '../dns/normalize-domain';
import { parseTagList } from '../dns/tag-list';
import { MESSAGE_LIMITS } from '../limits';
import { evaluateAlignment, type AlignmentMode } from './alignment';
import type { MessageFacts } from './message-facts';
import { messageFinding as finding } from './message-finding';
import type { DkimSignatureCheck, DkimVerification, MessageAuthenticationReport, MessageCheckStatus, MessageFinding } from './message-report';

/** What the worker looked up for a message (through its DNS port): the input of the authentication report. */
export interface MessageAuthenticationInput {
  /** The DNS audit of each domain of the plan, by domain; null when the audit could not be made (a lookup failed, the budget ran out). */
  audits: Record<string, DeliverabilityResult | null>;
  /** Each DKIM-Signature's verification against the message, in header order. */
  dkim: Array<{ domain: string; selector: string; result: DkimVerification; message: string }>;
}

/** The domains whose DNS the authentication report needs, with the DKIM selectors to read at each. */
export interface AuthenticationPlan {
  fromDomain: string | null;
  domains: Array<{ domain: string; dkimSelectors: string[] }>;
}

/** Each requirement's footing in the DNS: met, not met, met with a caveat, or inconclusive (a lookup failed): the report's own words. */
export type AuthVerdict = 'pass' | 'fail' | 'warn' | 'inconclusive';

export interface AuthenticationVerdicts {
  spf: AuthVerdict;
  dkim: AuthVerdict;
  dmarc: AuthVerdict;
  alignment: AuthVerdict;
  /** Why each verdict is what it is, one sentence each (the checklist's reasons). */
  reasons: Record<'spf' | 'dkim' | 'dmarc' | 'alignment', string>;
}

/** At most this many domains are audited for one message: From, Return-Path and two signing domains. */
export const MAX_AUTHENTICATION_DOMAINS = 4;

/**
 * At most this many DKIM selectors are read at one domain: below the dns-audit job's own bound (MAX_DKIM_SELECTORS,
 * 20), which would refuse the job and leave the whole message inconclusive. The scan allows as many signatures.
 */
export const MAX_SELECTORS_PER_DOMAIN = MESSAGE_LIMITS.maxDkimSignatures;

/** The lookups a message needs: its From domain, its envelope (Return-Path) domain and each signing domain with its selector. */
export function authenticationPlan(facts: MessageFacts): AuthenticationPlan {
  const selectors = new Map<string, Set<string>>();
  const add = (domain: string | undefined | null, selector?: string) => {
    if (!domain) return;
    if (!selectors.has(domain)) selectors.set(domain, new Set());
    if (selector) selectors.get(domain)!.add(selector);
  };
  add(facts.from?.domain);
  add(facts.returnPath?.valid?.domain);
  for (const signature of facts.dkimSignatures) if (isValidDkimSelector(signature.selector)) add(signature.domain, signature.selector);
  const domains = [...selectors]
    .slice(0, MAX_AUTHENTICATION_DOMAINS)
    .map(([domain, names]) => ({ domain, dkimSelectors: [...names].sort().slice(0, MAX_SELECTORS_PER_DOMAIN) }));
  return { fromDomain: facts.from?.domain ?? null, domains };
}

function dmarcModes(audit: DeliverabilityResult): { policy: string; adkim: AlignmentMode; aspf: AlignmentMode } | null {
  if (!audit.dmarc.valid) return null;
  const tags = parseTagList(audit.dmarc.record).tags;
  const mode = (value: string | undefined): AlignmentMode => (value?.toLowerCase() === 's' ? 's' : 'r');
  return { policy: audit.dmarc.policy, adkim: mode(tags.get('adkim')), aspf: mode(tags.get('aspf')) };
}

const usable = (audit: DeliverabilityResult | null | undefined): audit is DeliverabilityResult => !!audit && !isInconclusive(audit);

function spfVerdict(envelopeDomain: string, audit: DeliverabilityResult | null | undefined): [AuthVerdict, string] {
  if (!usable(audit) || audit.checks.spf.status === 'skip') return ['inconclusive', `the SPF lookup of ${envelopeDomain} failed`];
  if (!audit.spf.valid) return ['fail', `${envelopeDomain} publishes no valid SPF record (${audit.checks.spf.message})`];
  if (!spfAuthorizesSenders(audit.spf.record))
    return [
      'fail',
      `the SPF record of ${envelopeDomain} authorizes no sending server (no ip4, ip6, a, mx, include, exists or redirect), so every server fails`,
    ];
  return ['pass', `${envelopeDomain} publishes an SPF record that authorizes its sending servers`];
}

/**
 * Whether an SPF record lets any server pass (RFC 7208 5): a pass-qualified mechanism (`+` or none) that names servers,
 * `all` among them, or a `redirect=` to another record. `v=spf1 -all` (the record of a domain that sends no mail)
 * authorizes nobody.
 */
export function spfAuthorizesSenders(record: string): boolean {
  return record
    .trim()
    .split(/\s+/)
    .slice(1)
    .some((term) => {
      const lower = term.toLowerCase();
      if (lower.startsWith('redirect=')) return true;
      const mechanism = /^\+?(ip4|ip6|a|mx|include|exists|ptr|all)(?=$|[:/])/.exec(lower);
      return mechanism !== null;
    });
}

const NOT_CHECKED = `not checked: beyond the ${MAX_AUTHENTICATION_DOMAINS} domains (${MAX_SELECTORS_PER_DOMAIN} selectors each) looked up for one message`;

/**
 * A verified aligned signature passes (else any verified one: alignment is its own requirement); a key lookup that
 * failed leaves it undecided; a signature that fails (or has no key) fails. Signatures left unchecked by the plan's
 * bounds are neutral and decide nothing, so they never turn a failing signature into an undecided one.
 */
function dkimVerdict(dkim: DkimSignatureCheck[], fromAudit: DeliverabilityResult): [AuthVerdict, string] {
  const passed = dkim.find((check) => check.result === 'pass' && check.aligned) ?? dkim.find((check) => check.result === 'pass');
  if (passed) return ['pass', `the DKIM signature of ${passed.domain} verifies`];
  if (dkim.some((check) => check.result === 'temperror')) return ['inconclusive', 'the DKIM key lookup failed'];
  const checked = dkim.filter((check) => check.message !== NOT_CHECKED);
  if (checked.length > 0) return ['fail', `no DKIM signature verifies (${checked.map((check) => `${check.domain}: ${check.result}`).join(', ')})`];
  if (dkim.length > 0) return ['inconclusive', `no DKIM signature was checked (${dkim[0].message})`];
  if (fromAudit.checks.dkim.status === 'skip') return ['inconclusive', 'the DKIM key lookup failed'];
  if (fromAudit.dkim.valid)
    return [
      'warn',
      `the message is not signed; ${fromAudit.domain} publishes a DKIM key (selector ${fromAudit.dkim.selector}), so the sending system may sign it`,
    ];
  return ['fail', `the message is not signed and ${fromAudit.domain} publishes no DKIM key at the selectors checked`];
}

/** A signature whose domain or selector the plan did not look up is neutral ("not checked"), never a failed lookup. */
function planned(check: MessageAuthenticationInput['dkim'][number], plan: AuthenticationPlan): { result: DkimVerification; message: string } {
  const looked = plan.domains.some(({ domain, dkimSelectors }) => domain === check.domain && dkimSelectors.includes(check.selector));
  if (looked || check.result !== 'temperror') return { result: check.result, message: check.message };
  return { result: 'neutral', message: NOT_CHECKED };
}

function alignmentVerdict(dkim: DkimSignatureCheck[], spfAligned: boolean | null, spf: AuthVerdict, envelope: string | null): [AuthVerdict, string] {
  const aligned = dkim.find((check) => check.result === 'pass' && check.aligned);
  if (aligned) return ['pass', `the verified DKIM domain ${aligned.domain} aligns with From`];
  if (spfAligned && spf === 'pass') return ['pass', `the Return-Path domain ${envelope} aligns with From and publishes SPF`];
  if (spf === 'inconclusive' && spfAligned) return ['inconclusive', 'the SPF lookup of the aligned Return-Path domain failed'];
  if (dkim.some((check) => check.result === 'temperror')) return ['inconclusive', 'the DKIM key lookup failed'];
  if (dkim.length === 0 && envelope === null)
    return ['warn', 'the message has neither a DKIM-Signature nor a Return-Path: alignment is decided by the sending system; check a sent message'];
  return ['fail', 'neither a verified DKIM domain nor the Return-Path domain aligns with the From domain'];
}

/**
 * The authentication section and the verdicts the bulk-sender checklist reads. Pure: the worker supplies the
 * audits and DKIM verifications (`input`); null means no lookups were made (`uncheckedReason` says why: a local
 * analysis, an anonymous preview), which is inconclusive like a failed lookup, never a failure.
 */
export function evaluateAuthentication(
  facts: MessageFacts,
  input: MessageAuthenticationInput | null,
  uncheckedReason = 'no DNS lookups were made (a local analysis)',
): { report: MessageAuthenticationReport; verdicts: AuthenticationVerdicts } {
  const fromDomain = facts.from?.domain ?? null;
  const undecided = (reason: string): AuthenticationVerdicts => ({
    spf: 'inconclusive',
    dkim: 'inconclusive',
    dmarc: 'inconclusive',
    alignment: 'inconclusive',
    reasons: { spf: reason, dkim: reason, dmarc: reason, alignment: reason },
  });
  const empty = { fromDomain, audit: null, dmarc: null, dkim: [], spfAligned: null };
  if (!fromDomain) {
    const reason = 'the message has no valid From address to authenticate';
    return {
      report: {
        ...empty,
        status: 'fail',
        findings: finding('authentication-no-from', 'error', `Nothing to authenticate: ${reason}.`, 'Give the message one valid From address.'),
      },
      verdicts: { spf: 'fail', dkim: 'fail', dmarc: 'fail', alignment: 'fail', reasons: { spf: reason, dkim: reason, dmarc: reason, alignment: reason } },
    };
  }
  const fromAudit = input?.audits[fromDomain];
  if (!input || !usable(fromAudit)) {
    const reason = input ? `the DNS lookups of ${fromDomain} failed` : uncheckedReason;
    const report: MessageAuthenticationReport = {
      ...empty,
      status: 'inconclusive',
      findings: finding('authentication-inconclusive', 'info', `Authentication could not be checked: ${reason}.`, input ? 'Check again shortly.' : null),
    };
    return { report, verdicts: undecided(reason) };
  }
  const dmarc = dmarcModes(fromAudit);
  const plan = authenticationPlan(facts);
  const dkim: DkimSignatureCheck[] = input.dkim.map((check) => ({
    ...check,
    ...planned(check, plan),
    aligned: evaluateAlignment(check.domain, fromDomain, dmarc?.adkim ?? 'r'),
  }));
  const envelope = facts.returnPath?.valid?.domain ?? null;
  const spfAligned = envelope === null ? null : evaluateAlignment(envelope, fromDomain, dmarc?.aspf ?? 'r');
  const [spf, spfReason] = spfVerdict(envelope ?? fromDomain, input.audits[envelope ?? fromDomain]);
  const [dkimState, dkimReason] = dkimVerdict(dkim, fromAudit);
  const [alignment, alignmentReason] = alignmentVerdict(dkim, spfAligned, spf, envelope);
  const dmarcState: AuthVerdict = fromAudit.checks.dmarc.status === 'skip' ? 'inconclusive' : dmarc ? 'pass' : 'fail';
  const dmarcReason =
    dmarcState === 'pass'
      ? `${fromDomain} publishes DMARC p=${dmarc!.policy}`
      : dmarcState === 'inconclusive'
        ? 'the DMARC lookup failed'
        : `${fromDomain} publishes no valid DMARC record`;
  const verdicts: AuthenticationVerdicts = {
    spf,
    dkim: dkimState,
    dmarc: dmarcState,
    alignment,
    reasons: { spf: spfReason, dkim: dkimReason, dmarc: dmarcReason, alignment: alignmentReason },
  };
  return {
    report: {
      status: authenticationStatus(verdicts),
      fromDomain,
      audit: { spf: fromAudit.checks.spf.status, dkim: fromAudit.checks.dkim.status, dmarc: fromAudit.checks.dmarc.status, score: fromAudit.score },
      dmarc,
      dkim,
      spfAligned,
      findings: authenticationFindings(verdicts, dkim),
    },
    verdicts,
  };
}

function authenticationStatus(verdicts: AuthenticationVerdicts): MessageCheckStatus {
  const all = [verdicts.spf, verdicts.dkim, verdicts.dmarc, verdicts.alignment];
  if (verdicts.dkim === 'fail' && verdicts.spf === 'fail') return 'fail';
  if (all.includes('inconclusive')) return 'inconclusive';
  if (all.every((verdict) => verdict === 'pass')) return 'pass';
  return all.includes('fail') ? 'fail' : 'warn';
}

function authenticationFindings(verdicts: AuthenticationVerdicts, dkim: DkimSignatureCheck[]): MessageFinding[] {
  const findings: MessageFinding[] = [];
  const { reasons } = verdicts;
  for (const check of dkim.filter((signature) => signature.result === 'fail' || signature.result === 'permerror'))
    findings.push(
      ...finding(
        'dkim-signature-fails',
        'error',
        `The DKIM signature of ${check.domain} (selector ${check.selector}) does not verify: ${check.message}`,
        'Sign the message again after the last change, with the published key.',
      ),
    );
  if (verdicts.dkim === 'warn') findings.push(...finding('dkim-unsigned', 'info', `Not signed: ${reasons.dkim}.`, null));
  if (verdicts.dkim === 'fail' && dkim.length === 0)
    findings.push(...finding('dkim-missing', 'error', `No DKIM: ${reasons.dkim}.`, 'Publish a DKIM key and sign outgoing mail with it.'));
  if (verdicts.spf === 'fail')
    findings.push(...finding('spf-missing', 'error', `No SPF: ${reasons.spf}.`, 'Publish an SPF record that lists your sending servers.'));
  if (verdicts.dmarc === 'fail')
    findings.push(...finding('dmarc-missing', 'error', `No DMARC: ${reasons.dmarc}.`, 'Publish a DMARC record, at least "v=DMARC1; p=none; rua=mailto:...".'));
  if (verdicts.alignment === 'fail' || verdicts.alignment === 'warn')
    findings.push(
      ...finding(
        'dmarc-not-aligned',
        verdicts.alignment === 'fail' ? 'error' : 'warning',
        `Alignment: ${reasons.alignment}.`,
        'Sign with d= your From domain (or a subdomain of it), or send with a Return-Path in your From domain.',
      ),
    );
  for (const verdict of ['spf', 'dkim', 'dmarc', 'alignment'] as const)
    if (verdicts[verdict] === 'inconclusive')
      findings.push(
        ...finding('authentication-lookup-failed', 'info', `${verdict.toUpperCase()} could not be checked: ${reasons[verdict]}.`, 'Check again shortly.'),
      );
  return findings;
}
