/** Shapes of a DNS audit: the per-record summaries, plus a status and message per check and the issues found. */
export type DnsCheckName = 'mx' | 'spf' | 'dkim' | 'dmarc' | 'bimi';
export const DNS_CHECK_NAMES: readonly DnsCheckName[] = ['mx', 'spf', 'dkim', 'dmarc', 'bimi'];

/** pass = full weight, warn = half, fail = none, skip = not counted (the lookup could not be made). */
export type DnsCheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface DnsCheck {
  status: DnsCheckStatus;
  message: string;
}

export type DnsIssueSeverity = 'error' | 'warning' | 'info';

/** One finding: `rule` is a stable snake_case id (e.g. `spf_too_many_lookups`). */
export interface DnsIssue {
  check: DnsCheckName;
  rule: string;
  severity: DnsIssueSeverity;
  message: string;
}

/** RFC 7208 2.6: what a receiver concludes from a domain's SPF record for one server. */
export type SpfResult = 'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror';

export interface SpfSummary {
  valid: boolean;
  /** The domain's own SPF record; '' when there is none (or several). */
  record: string;
  /** DNS-querying terms counted recursively (include, a, mx, ptr, exists, redirect). */
  lookups: number;
  /**
   * false when part of the tree could not be read (an include or redirect target timed out, or the walk's
   * query budget ran out): `lookups` is then a lower bound, and `valid` only says no permerror was found.
   */
  lookupsComplete: boolean;
  voidLookups: number;
  /**
   * The result a server the record does not list gets: normally fail or softfail; pass means the
   * record lets everyone send. '' when it depends on the message (a redirect= through a sender macro).
   */
  result: SpfResult | '';
}

export interface DkimKey {
  selector: string;
  keyType: string;
  /** RSA modulus size; 256 for ed25519; null when the key could not be read. */
  bits: number | null;
  revoked: boolean;
  testing: boolean;
}

export interface DkimSummary {
  valid: boolean;
  /** The selector of the best key found; '' when none. */
  selector: string;
  /** Every selector that answered with a DKIM record, sorted by selector. */
  keys: DkimKey[];
}

export interface DmarcSummary {
  valid: boolean;
  /** The policy that applies to this domain (sp= when inherited from a parent); '' when none. */
  policy: string;
  record: string;
  /** The name the record was found at (`_dmarc.<domain>` or a parent's); '' when none. */
  foundAt: string;
}

export interface MxSummary {
  valid: boolean;
  /** Exchange host names by preference, then name. */
  hosts: string[];
}

export interface BimiSummary {
  valid: boolean;
  /** The `l=` logo URL; '' when none. */
  indicatorUrl: string;
  /** The `a=` mark certificate URL; '' when none. */
  authorityUrl: string;
}

export interface DeliverabilityResult {
  domain: string;
  /** 0-100, weighted by DNS_CHECK_WEIGHTS (MX 25, SPF 25, DKIM 20, DMARC 20, BIMI 10); null when every check was skipped. */
  score: number | null;
  spf: SpfSummary;
  dkim: DkimSummary;
  dmarc: DmarcSummary;
  mx: MxSummary;
  bimi: BimiSummary;
  checks: Record<DnsCheckName, DnsCheck>;
  issues: DnsIssue[];
}

/** What one record evaluator returns. */
export interface CheckOutcome<S> {
  summary: S;
  check: DnsCheck;
  issues: DnsIssue[];
}

/** Status from findings: any error fails, any warning warns, otherwise pass. */
export function statusFromIssues(issues: DnsIssue[]): Exclude<DnsCheckStatus, 'skip'> {
  if (issues.some((issue) => issue.severity === 'error')) return 'fail';
  if (issues.some((issue) => issue.severity === 'warning')) return 'warn';
  return 'pass';
}

/** The message of a check: its most severe finding, or the given success text. */
export function checkMessage(issues: DnsIssue[], passMessage: string): string {
  const order: DnsIssueSeverity[] = ['error', 'warning'];
  for (const severity of order) {
    const first = issues.find((issue) => issue.severity === severity);
    if (first) return first.message;
  }
  return passMessage;
}
