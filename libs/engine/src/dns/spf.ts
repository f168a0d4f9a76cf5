import type { CheckOutcome, DnsIssue, SpfResult, SpfSummary } from './deliverability-result';
import { checkMessage, statusFromIssues } from './deliverability-result';
import ipaddr from 'ipaddr.js';
import { describeFailure, isVoid, type DnsLookup, type DnsResolver } from './dns-resolver.port';
import { expandDomainSpec, isDomainSpec, isMacroString, isQueryableName } from './spf-macro';

/** RFC 7208 section 4.6.4: at most 10 DNS-querying terms and 2 void lookups per evaluation. */
export const SPF_MAX_LOOKUPS = 10;
export const SPF_MAX_VOID_LOOKUPS = 2;
/** Beyond this the walk stops counting, so a hostile include tree cannot make us query forever. */
const SPF_WALK_BUDGET = 40;
const SPF_MAX_DEPTH = 10;
/** Lookups counted before includes stop being followed: well past RFC 7208's 10, so the verdict is certain. */
const SPF_COUNT_CAP = 30;

/** Mechanisms that query DNS, each counting one lookup; `redirect=` counts too (RFC 7208 4.6.4). */
const LOOKUP_MECHANISMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
/** An `mx` whose name has more MX hosts than this is a permerror (RFC 7208 4.6.4). */
export const SPF_MAX_MX_HOSTS = 10;

/**
 * Rules that make receivers return permerror for the whole record: `spf.valid` is false exactly
 * when one of them is found. A weak policy (`+all`) is valid SPF and only fails the check.
 */
export const SPF_PERMERROR_RULES: ReadonlySet<string> = new Set([
  'spf_missing',
  'spf_multiple_records',
  'spf_syntax',
  'spf_include_invalid',
  'spf_redirect_invalid',
  'spf_include_loop',
  'spf_too_many_lookups',
  'spf_too_many_void_lookups',
  'spf_mx_too_many_hosts',
]);

export function isSpfRecord(txt: string): boolean {
  return /^v=spf1(\s|$)/i.test(txt.trim());
}

type SpfQualifier = '+' | '-' | '~' | '?';
const QUALIFIER_RESULT: Record<SpfQualifier, SpfResult> = { '+': 'pass', '-': 'fail', '~': 'softfail', '?': 'neutral' };
/** What one mechanism does for a server the record does not list: it matches, it does not, or its lookup failed. */
type UnlistedMatch = 'match' | 'no-match' | 'temperror';

type SpfMechanism = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

type SpfTerm =
  | { kind: 'mechanism'; qualifier: SpfQualifier; name: SpfMechanism; /** domain-spec or address; '' when absent. */ argument: string; raw: string }
  | { kind: 'modifier'; name: string; argument: string; raw: string };

const CIDR4 = '(?:/(0|[1-9]\\d?))';
const CIDR6 = '(?:/(0|[1-9]\\d{0,2}))';
const DUAL_CIDR = new RegExp(`^(?::(.+?))?${CIDR4}?(?:/${CIDR6})?$`, 'i');
const IP4_NETWORK = new RegExp(`^:([0-9.]+)${CIDR4}?$`);
const IP6_NETWORK = new RegExp(`^:([0-9a-f:.]+)${CIDR6}?$`, 'i');
const DEC_OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => DEC_OCTET.test(part));
}

const within = (value: string | undefined, max: number) => value === undefined || Number(value) <= max;

/**
 * One term against the grammar of RFC 7208 section 12: a mechanism with what it may carry (a
 * domain-spec, a CIDR length, an address) or a modifier whose value is a macro-string. A string
 * is why the term is not valid.
 */
function parseTerm(raw: string): SpfTerm | string {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(raw);
  if (modifier) {
    const name = modifier[1].toLowerCase();
    const argument = modifier[2];
    if (name === 'redirect' || name === 'exp' ? !isDomainSpec(argument) : !isMacroString(argument)) return `"${raw}" has an invalid value`;
    return { kind: 'modifier', name, argument, raw };
  }
  const mechanism = /^([+\-~?]?)([a-z][a-z0-9_.-]*)(.*)$/i.exec(raw);
  if (!mechanism) return `"${raw}" is not a valid SPF term`;
  const qualifier = (mechanism[1] || '+') as SpfQualifier;
  const name = mechanism[2].toLowerCase();
  const rest = mechanism[3];
  const term = (argument: string): SpfTerm => ({ kind: 'mechanism', qualifier, name: name as SpfMechanism, argument, raw });
  switch (name) {
    case 'all':
      return rest === '' ? term('') : `"${raw}": all takes no argument`;
    case 'include':
    case 'exists':
      return rest.startsWith(':') && isDomainSpec(rest.slice(1)) ? term(rest.slice(1)) : `"${raw}": ${name} needs a domain`;
    case 'ptr':
      if (rest === '') return term('');
      return rest.startsWith(':') && isDomainSpec(rest.slice(1)) ? term(rest.slice(1)) : `"${raw}" is not a valid ptr term`;
    case 'a':
    case 'mx': {
      const parts = DUAL_CIDR.exec(rest);
      if (!parts || (parts[1] !== undefined && !isDomainSpec(parts[1])) || !within(parts[2], 32) || !within(parts[3], 128))
        return `"${raw}" is not a valid ${name} term`;
      return term(parts[1] ?? '');
    }
    case 'ip4': {
      const parts = IP4_NETWORK.exec(rest);
      return parts && isIpv4(parts[1]) && within(parts[2], 32) ? term(parts[1]) : `"${raw}" is not a valid IPv4 network`;
    }
    case 'ip6': {
      const parts = IP6_NETWORK.exec(rest);
      return parts && ipaddr.IPv6.isValid(parts[1]) && within(parts[2], 128) ? term(parts[1]) : `"${raw}" is not a valid IPv6 network`;
    }
    default:
      return `"${raw}" is not an SPF mechanism`;
  }
}

/** Extracts the single SPF record from a TXT answer set (or why there is not exactly one). */
function pickSpf(lookup: DnsLookup<string>): { record: string } | { count: number } {
  if (lookup.status !== 'ok') return { count: 0 };
  const records = lookup.records.filter(isSpfRecord);
  return records.length === 1 ? { record: records[0].trim() } : { count: records.length };
}

class SpfWalk {
  lookups = 0;
  voidLookups = 0;
  queries = 0;
  /** Cleared when a part of the tree goes unread, so `lookups` is a lower bound (docs/deliverability.md). */
  complete = true;
  readonly issues: DnsIssue[] = [];
  /** TXT answers by name: a record included twice (a diamond) is evaluated, and counted, twice but read once. */
  private readonly txtAnswers = new Map<string, Promise<DnsLookup<string>>>();

  constructor(
    private readonly resolver: DnsResolver,
    private readonly auditedDomain: string,
  ) {}

  private issue(rule: string, severity: DnsIssue['severity'], message: string): void {
    if (!this.issues.some((existing) => existing.rule === rule && existing.message === message)) {
      this.issues.push({ check: 'spf', rule, severity, message });
    }
  }

  private canQuery(): boolean {
    if (this.queries < SPF_WALK_BUDGET) return true;
    this.complete = false;
    return false;
  }

  private countVoid(lookup: DnsLookup<unknown>): void {
    if (isVoid(lookup)) this.voidLookups++;
  }

  /**
   * The name a term queries: its domain-spec with macros expanded for this audit (the record's own
   * domain when it has none), or null when it cannot be known without a message.
   */
  private target(term: { argument: string; raw: string }, domain: string): string | null {
    if (term.argument === '') return domain;
    const name = expandDomainSpec(term.argument, { domain, senderDomain: this.auditedDomain });
    if (name === null) {
      this.issue(
        'spf_macro_not_followed',
        'info',
        `"${term.raw}" in the SPF record of ${domain} depends on each message (sender, IP address or HELO); its lookup is counted but not followed.`,
      );
      return null;
    }
    if (!isQueryableName(name)) {
      this.issue(
        'spf_syntax',
        'error',
        `"${term.raw}" in the SPF record of ${domain} names "${name}", which is not a valid domain: receivers return permerror.`,
      );
      return null;
    }
    return name;
  }

  /**
   * Follows include: or redirect= to the target's SPF record. Receivers evaluate every include each time
   * it is reached, so a record included from two places counts its lookups twice (RFC 7208 4.6.4); only a
   * record that includes one of its own ancestors is a loop.
   */
  private async follow(name: string, via: 'include' | 'redirect', depth: number, ancestors: ReadonlySet<string>): Promise<SpfResult | null> {
    if (ancestors.has(name)) {
      this.issue('spf_include_loop', 'error', `${via} ${name} points back to a record that includes it (a loop): receivers return permerror.`);
      return null;
    }
    // Far past the limit of 10 the count says all it needs to; stop before a many-way diamond multiplies it.
    if (depth >= SPF_MAX_DEPTH || this.lookups > SPF_COUNT_CAP) return null;
    let answer = this.txtAnswers.get(name);
    if (!answer) {
      if (!this.canQuery()) return null;
      this.queries++;
      answer = this.resolver.txt(name);
      this.txtAnswers.set(name, answer);
    }
    const lookup = await answer;
    if (lookup.status === 'error') {
      this.complete = false;
      this.issue(
        'spf_include_unverified',
        'warning',
        `Could not read the SPF record of ${via} ${name}: ${describeFailure(lookup)}; the lookup count may be low.`,
      );
      return 'temperror';
    }
    this.countVoid(lookup);
    const picked = pickSpf(lookup);
    if (!('record' in picked)) {
      const what = picked.count > 1 ? 'has more than one SPF record' : 'has no SPF record';
      this.issue(`spf_${via}_invalid`, 'error', `${via} ${name} ${what}: receivers return permerror for the whole record.`);
      return null;
    }
    return (await this.walk(name, picked.record, depth + 1, false, ancestors)).result;
  }

  /**
   * Reads one record as a receiver evaluates it for a sender it does not list: every term up to
   * `all`, then redirect= when there is no `all`. The whole record is checked against the grammar
   * first, since a syntax error anywhere, even after `all`, is a permerror (RFC 7208 4.6). `result`
   * is what that sender gets (4.6.2): the qualifier of the first mechanism that matches everyone
   * (`all`, an ip4/ip6 network of length 0, an `exists` whose name does not depend on the message and
   * resolves, an include whose record passes everyone), else redirect='s result, else neutral.
   */
  async walk(
    domain: string,
    record: string,
    depth: number,
    root: boolean,
    parents: ReadonlySet<string> = new Set(),
  ): Promise<{ all: SpfTerm | null; result: SpfResult | null }> {
    const ancestors = new Set(parents).add(domain);
    const terms: SpfTerm[] = [];
    for (const raw of record.trim().split(/\s+/).slice(1)) {
      const term = parseTerm(raw);
      if (typeof term === 'string') this.issue('spf_syntax', 'error', `${term} in the SPF record of ${domain}: receivers return permerror.`);
      else terms.push(term);
    }
    let all: SpfTerm | null = null;
    let redirect: SpfTerm | null = null;
    const seenModifiers = new Set<string>();
    for (const term of terms) {
      if (term.kind !== 'modifier') continue;
      if ((term.name === 'redirect' || term.name === 'exp') && seenModifiers.has(term.name)) {
        this.issue('spf_syntax', 'error', `The SPF record of ${domain} repeats ${term.name}=: receivers return permerror.`);
      }
      seenModifiers.add(term.name);
      if (term.name === 'redirect' && !redirect) redirect = term;
    }
    const pending: Array<() => Promise<void>> = [];
    const tested: Array<{ qualifier: SpfQualifier; match: UnlistedMatch }> = [];
    for (const term of terms) {
      if (term.kind === 'modifier') continue;
      if (all) break; // Terms after `all` are never evaluated (but were checked above).
      if (LOOKUP_MECHANISMS.has(term.name)) this.lookups++;
      // a, mx and ptr name servers of the domain's own; an unlisted server is not among them.
      const tests: { qualifier: SpfQualifier; match: UnlistedMatch } = { qualifier: term.qualifier, match: 'no-match' };
      tested.push(tests);
      switch (term.name) {
        case 'all':
          all = term;
          tests.match = 'match';
          break;
        case 'ip4':
        case 'ip6':
          // A network of length 0 holds every address of its family.
          if (/\/0$/.test(term.raw)) tests.match = 'match';
          break;
        case 'include': {
          const name = this.target(term, domain);
          if (name !== null) {
            pending.push(async () => {
              // RFC 7208 5.2: the include matches when its record passes; its temperror is ours.
              const result = await this.follow(name, 'include', depth, ancestors);
              tests.match = result === 'pass' ? 'match' : result === 'temperror' ? 'temperror' : 'no-match';
            });
          }
          break;
        }
        case 'a':
        case 'exists': {
          const name = this.target(term, domain);
          if (name === null || !this.canQuery()) break;
          this.queries++;
          pending.push(async () => {
            const [v4, v6] = await Promise.all([this.resolver.a(name), term.name === 'a' ? this.resolver.aaaa(name) : Promise.resolve(null)]);
            if (isVoid(v4) && (v6 === null || isVoid(v6))) this.voidLookups++;
            // exists matches any sender when its name, which here does not depend on the message, resolves.
            if (term.name === 'exists') tests.match = v4.status === 'ok' ? 'match' : v4.status === 'error' ? 'temperror' : 'no-match';
          });
          break;
        }
        case 'mx': {
          const name = this.target(term, domain);
          if (name === null || !this.canQuery()) break;
          this.queries++;
          pending.push(async () => {
            const lookup = await this.resolver.mx(name);
            this.countVoid(lookup);
            if (lookup.status === 'ok' && lookup.records.length > SPF_MAX_MX_HOSTS) {
              this.issue(
                'spf_mx_too_many_hosts',
                'error',
                `"${term.raw}" in the SPF record of ${domain}: ${name} has ${lookup.records.length} MX hosts; receivers look up at most ${SPF_MAX_MX_HOSTS} and return permerror (RFC 7208 4.6.4).`,
              );
            }
          });
          break;
        }
        case 'ptr':
          this.issue('spf_ptr', 'warning', `The SPF record of ${domain} uses ptr, which RFC 7208 says not to use: it is slow and some receivers ignore it.`);
          break;
      }
    }
    // redirect= applies only when the record has no `all` (RFC 7208 6.1).
    let redirected: SpfResult | null = 'neutral';
    if (redirect && !all) {
      this.lookups++;
      const name = this.target(redirect, domain);
      redirected = null;
      if (name !== null) pending.push(async () => void (redirected = await this.follow(name, 'redirect', depth, ancestors)));
    }
    // Sequential, in record order, so the walk and its findings are deterministic.
    for (const step of pending) await step();
    if (root && !all && !redirect) {
      this.issue(
        'spf_no_all',
        'warning',
        `The SPF record of ${domain} ends without an "all" mechanism: mail from unlisted servers gets a neutral result. End it with -all or ~all.`,
      );
    }
    return { all, result: unlistedResult(tested, redirected) };
  }
}

/** RFC 7208 4.6.2: the first mechanism that matches decides; a failed lookup before it is a temperror. */
function unlistedResult(tested: ReadonlyArray<{ qualifier: SpfQualifier; match: UnlistedMatch }>, otherwise: SpfResult | null): SpfResult | null {
  for (const { qualifier, match } of tested) {
    if (match === 'temperror') return 'temperror';
    if (match === 'match') return QUALIFIER_RESULT[qualifier];
  }
  return otherwise;
}

/**
 * Evaluates the SPF record of `domain` as a receiver would for a server it does not list: one
 * record, valid syntax, lookup limits (`valid` says whether receivers get a permerror), then the
 * policy of its `all` (which fails the check, not the record).
 */
export async function evaluateSpf(domain: string, resolver: DnsResolver): Promise<CheckOutcome<SpfSummary>> {
  const empty: SpfSummary = { valid: false, record: '', lookups: 0, lookupsComplete: true, voidLookups: 0, result: 'none' };
  const lookup = await resolver.txt(domain);
  if (lookup.status === 'error') {
    return { summary: { ...empty, result: 'temperror' }, check: { status: 'skip', message: `SPF not checked: ${describeFailure(lookup)}.` }, issues: [] };
  }
  const picked = pickSpf(lookup);
  if (!('record' in picked)) {
    const issue: DnsIssue =
      picked.count > 1
        ? {
            check: 'spf',
            rule: 'spf_multiple_records',
            severity: 'error',
            message: `${domain} publishes ${picked.count} SPF records; there must be exactly one (receivers return permerror).`,
          }
        : { check: 'spf', rule: 'spf_missing', severity: 'error', message: `${domain} has no SPF record (a TXT record starting with v=spf1).` };
    return { summary: { ...empty, result: picked.count > 1 ? 'permerror' : 'none' }, check: { status: 'fail', message: issue.message }, issues: [issue] };
  }
  const walk = new SpfWalk(resolver, domain);
  const { all, result } = await walk.walk(domain, picked.record, 0, true);
  if (all?.kind === 'mechanism') {
    if (all.qualifier === '+') {
      walk.issues.push({
        check: 'spf',
        rule: 'spf_pass_all',
        severity: 'error',
        message: `The SPF record of ${domain} ends with ${all.raw}: it authorizes every server on the internet to send as ${domain}. The record is valid SPF; the policy is the problem. End it with -all or ~all.`,
      });
    } else if (all.qualifier === '?') {
      walk.issues.push({
        check: 'spf',
        rule: 'spf_neutral_all',
        severity: 'warning',
        message: `The SPF record of ${domain} ends with ?all (neutral): it does not tell receivers to reject anything. Use -all or ~all.`,
      });
    }
  }
  if (walk.lookups > SPF_MAX_LOOKUPS) {
    walk.issues.push({
      check: 'spf',
      rule: 'spf_too_many_lookups',
      severity: 'error',
      message: `The SPF record of ${domain} needs ${walk.lookups} DNS lookups; receivers stop at ${SPF_MAX_LOOKUPS} and return permerror (RFC 7208 4.6.4). Flatten includes or remove unused ones.`,
    });
  }
  if (walk.voidLookups > SPF_MAX_VOID_LOOKUPS) {
    walk.issues.push({
      check: 'spf',
      rule: 'spf_too_many_void_lookups',
      severity: 'error',
      message: `The SPF record of ${domain} has ${walk.voidLookups} lookups that find nothing; receivers allow ${SPF_MAX_VOID_LOOKUPS} (RFC 7208 4.6.4).`,
    });
  }
  const status = statusFromIssues(walk.issues);
  const valid = !walk.issues.some((issue) => SPF_PERMERROR_RULES.has(issue.rule));
  const summary: SpfSummary = {
    valid,
    record: picked.record,
    lookups: walk.lookups,
    lookupsComplete: walk.complete,
    voidLookups: walk.voidLookups,
    result: valid ? (result ?? '') : 'permerror',
  };
  const needs = walk.complete ? `${walk.lookups}` : `at least ${walk.lookups}`;
  const message = checkMessage(walk.issues, `SPF record is valid and needs ${needs} of ${SPF_MAX_LOOKUPS} DNS lookups.`);
  return { summary, check: { status, message }, issues: walk.issues };
}
