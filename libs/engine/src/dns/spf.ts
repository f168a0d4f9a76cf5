import type { CheckOutcome, DnsIssue, SpfSummary } from './deliverability-result';
import { checkMessage, statusFromIssues } from './deliverability-result';
import { describeFailure, isVoid, type DnsLookup, type DnsResolver } from './dns-resolver.port';

/** RFC 7208 section 4.6.4: at most 10 DNS-querying terms and 2 void lookups per evaluation. */
export const SPF_MAX_LOOKUPS = 10;
export const SPF_MAX_VOID_LOOKUPS = 2;
/** Beyond this the walk stops counting, so a hostile include tree cannot make us query forever. */
const SPF_WALK_BUDGET = 40;
const SPF_MAX_DEPTH = 10;
/** Lookups counted before includes stop being followed: well past RFC 7208's 10, so the verdict is certain. */
const SPF_COUNT_CAP = 30;

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
const LOOKUP_MECHANISMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

export function isSpfRecord(txt: string): boolean {
  return /^v=spf1(\s|$)/i.test(txt.trim());
}

interface SpfTerm {
  kind: 'mechanism' | 'modifier';
  qualifier: '+' | '-' | '~' | '?';
  name: string;
  /** Domain-spec or address after ':' (mechanisms) or '=' (modifiers); '' when absent. */
  argument: string;
  /** The CIDR suffix, e.g. '/24' or '//64'; '' when absent. */
  cidr: string;
  raw: string;
}

function parseTerm(raw: string): SpfTerm | null {
  const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(raw);
  if (modifier) return { kind: 'modifier', qualifier: '+', name: modifier[1].toLowerCase(), argument: modifier[2], cidr: '', raw };
  const mechanism = /^([+\-~?]?)([a-z][a-z0-9_.-]*)(?::([^/]*))?((?:\/\/?\d+){0,2})?$/i.exec(raw);
  if (!mechanism) {
    // ip6 addresses contain ':' themselves; parse them separately.
    const ip6 = /^([+\-~?]?)ip6:([0-9a-f:.]+)((?:\/\d+)?)$/i.exec(raw);
    if (!ip6) return null;
    return { kind: 'mechanism', qualifier: (ip6[1] || '+') as SpfTerm['qualifier'], name: 'ip6', argument: ip6[2], cidr: ip6[3], raw };
  }
  return {
    kind: 'mechanism',
    qualifier: (mechanism[1] || '+') as SpfTerm['qualifier'],
    name: mechanism[2].toLowerCase(),
    argument: mechanism[3] ?? '',
    cidr: mechanism[4] ?? '',
    raw,
  };
}

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

function isIpv6(text: string): boolean {
  return /^[0-9a-f:.]+$/i.test(text) && text.includes(':') && (text.match(/::/g) ?? []).length <= 1;
}

function cidrValid(cidr: string, max4: number, max6: number): boolean {
  if (cidr === '') return true;
  const match = /^(?:\/(\d+))?(?:\/\/(\d+))?$/.exec(cidr);
  if (!match) return false;
  return (match[1] === undefined || Number(match[1]) <= max4) && (match[2] === undefined || Number(match[2]) <= max6);
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
  readonly issues: DnsIssue[] = [];
  /** TXT answers by name: a record included twice (a diamond) is evaluated, and counted, twice but read once. */
  private readonly txtAnswers = new Map<string, Promise<DnsLookup<string>>>();

  constructor(private readonly resolver: DnsResolver) {}

  private issue(rule: string, severity: DnsIssue['severity'], message: string): void {
    if (!this.issues.some((existing) => existing.rule === rule && existing.message === message)) {
      this.issues.push({ check: 'spf', rule, severity, message });
    }
  }

  private canQuery(): boolean {
    return this.queries < SPF_WALK_BUDGET;
  }

  private countVoid(lookup: DnsLookup<unknown>): void {
    if (isVoid(lookup)) this.voidLookups++;
  }

  /**
   * Follows include: or redirect= to the target's SPF record. Receivers evaluate every include each time
   * it is reached, so a record included from two places counts its lookups twice (RFC 7208 4.6.4); only a
   * record that includes one of its own ancestors is a loop.
   */
  private async follow(target: string, via: 'include' | 'redirect', depth: number, ancestors: ReadonlySet<string>): Promise<void> {
    if (target.includes('%')) {
      this.issue('spf_macro_not_followed', 'info', `${via} ${target} uses a macro; its lookups are counted once but not followed.`);
      return;
    }
    const name = target.toLowerCase().replace(/\.$/, '');
    if (ancestors.has(name)) {
      this.issue('spf_include_loop', 'error', `${via} ${name} points back to a record that includes it (a loop): receivers return permerror.`);
      return;
    }
    // Far past the limit of 10 the count says all it needs to; stop before a many-way diamond multiplies it.
    if (depth >= SPF_MAX_DEPTH || this.lookups > SPF_COUNT_CAP) return;
    let answer = this.txtAnswers.get(name);
    if (!answer) {
      if (!this.canQuery()) return;
      this.queries++;
      answer = this.resolver.txt(name);
      this.txtAnswers.set(name, answer);
    }
    const lookup = await answer;
    if (lookup.status === 'error') {
      this.issue('spf_include_unverified', 'warning', `Could not read the SPF record of ${via} ${name}: ${describeFailure(lookup)}; the lookup count may be low.`);
      return;
    }
    this.countVoid(lookup);
    const picked = pickSpf(lookup);
    if (!('record' in picked)) {
      const what = picked.count > 1 ? 'has more than one SPF record' : 'has no SPF record';
      this.issue(`spf_${via}_invalid`, 'error', `${via} ${name} ${what}: receivers return permerror for the whole record.`);
      return;
    }
    await this.walk(name, picked.record, depth + 1, false, ancestors);
  }

  async walk(domain: string, record: string, depth: number, root: boolean, parents: ReadonlySet<string> = new Set()): Promise<{ all: SpfTerm | null }> {
    const ancestors = new Set(parents).add(domain);
    const terms = record.trim().split(/\s+/).slice(1);
    let all: SpfTerm | null = null;
    let redirect: string | null = null;
    const seenModifiers = new Set<string>();
    const pending: Array<() => Promise<void>> = [];
    for (const raw of terms) {
      const term = parseTerm(raw);
      if (!term || (term.kind === 'mechanism' && !MECHANISMS.has(term.name))) {
        this.issue('spf_syntax', 'error', `"${raw}" in the SPF record of ${domain} is not a valid SPF term: receivers return permerror.`);
        continue;
      }
      if (term.kind === 'modifier') {
        if ((term.name === 'redirect' || term.name === 'exp') && seenModifiers.has(term.name)) {
          this.issue('spf_syntax', 'error', `The SPF record of ${domain} repeats ${term.name}=: receivers return permerror.`);
        }
        seenModifiers.add(term.name);
        if (term.name === 'redirect') redirect = term.argument;
        continue;
      }
      if (all) continue; // Terms after `all` are never evaluated.
      if (LOOKUP_MECHANISMS.has(term.name)) this.lookups++;
      switch (term.name) {
        case 'all':
          all = term;
          break;
        case 'include':
          if (!term.argument) this.issue('spf_syntax', 'error', `include without a domain in the SPF record of ${domain}.`);
          else pending.push(() => this.follow(term.argument, 'include', depth, ancestors));
          break;
        case 'a':
        case 'exists': {
          if (term.name === 'exists' && !term.argument) {
            this.issue('spf_syntax', 'error', `exists without a domain in the SPF record of ${domain}.`);
            break;
          }
          const target = term.argument || domain;
          if (target.includes('%') || !this.canQuery()) break;
          this.queries++;
          pending.push(async () => {
            const [v4, v6] = await Promise.all([this.resolver.a(target), term.name === 'a' ? this.resolver.aaaa(target) : Promise.resolve(null)]);
            if (isVoid(v4) && (v6 === null || isVoid(v6))) this.voidLookups++;
          });
          break;
        }
        case 'mx': {
          const target = term.argument || domain;
          if (target.includes('%') || !this.canQuery()) break;
          this.queries++;
          pending.push(async () => this.countVoid(await this.resolver.mx(target)));
          break;
        }
        case 'ptr':
          this.issue('spf_ptr', 'warning', `The SPF record of ${domain} uses ptr, which RFC 7208 says not to use: it is slow and some receivers ignore it.`);
          break;
        case 'ip4':
          if (!isIpv4(term.argument) || !cidrValid(term.cidr, 32, 32)) {
            this.issue('spf_syntax', 'error', `"${raw}" in the SPF record of ${domain} is not a valid IPv4 network.`);
          }
          break;
        case 'ip6':
          if (!isIpv6(term.argument) || !cidrValid(term.cidr, 128, 128)) {
            this.issue('spf_syntax', 'error', `"${raw}" in the SPF record of ${domain} is not a valid IPv6 network.`);
          }
          break;
      }
    }
    // redirect= applies only when the record has no `all` (RFC 7208 6.1).
    if (redirect !== null && !all) {
      this.lookups++;
      if (!redirect) this.issue('spf_syntax', 'error', `redirect= without a domain in the SPF record of ${domain}.`);
      else pending.push(() => this.follow(redirect as string, 'redirect', depth, ancestors));
    }
    // Sequential, in record order, so the walk and its findings are deterministic.
    for (const step of pending) await step();
    if (root && !all && redirect === null) {
      this.issue('spf_no_all', 'warning', `The SPF record of ${domain} ends without an "all" mechanism: mail from unlisted servers gets a neutral result. End it with -all or ~all.`);
    }
    return { all };
  }
}

/** Evaluates the SPF record of `domain`: one record, valid syntax, lookup limits, the `all` policy. */
export async function evaluateSpf(domain: string, resolver: DnsResolver): Promise<CheckOutcome<SpfSummary>> {
  const empty: SpfSummary = { valid: false, record: '', lookups: 0, voidLookups: 0 };
  const lookup = await resolver.txt(domain);
  if (lookup.status === 'error') {
    return { summary: empty, check: { status: 'skip', message: `SPF not checked: ${describeFailure(lookup)}.` }, issues: [] };
  }
  const picked = pickSpf(lookup);
  if (!('record' in picked)) {
    const issue: DnsIssue =
      picked.count > 1
        ? { check: 'spf', rule: 'spf_multiple_records', severity: 'error', message: `${domain} publishes ${picked.count} SPF records; there must be exactly one (receivers return permerror).` }
        : { check: 'spf', rule: 'spf_missing', severity: 'error', message: `${domain} has no SPF record (a TXT record starting with v=spf1).` };
    return { summary: empty, check: { status: 'fail', message: issue.message }, issues: [issue] };
  }
  const walk = new SpfWalk(resolver);
  const { all } = await walk.walk(domain, picked.record, 0, true);
  if (all) {
    if (all.qualifier === '+') {
      walk.issues.push({ check: 'spf', rule: 'spf_pass_all', severity: 'error', message: `The SPF record of ${domain} ends with +all: it authorises every server on the internet to send as ${domain}.` });
    } else if (all.qualifier === '?') {
      walk.issues.push({ check: 'spf', rule: 'spf_neutral_all', severity: 'warning', message: `The SPF record of ${domain} ends with ?all (neutral): it does not tell receivers to reject anything. Use -all or ~all.` });
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
  const summary: SpfSummary = { valid: status !== 'fail', record: picked.record, lookups: walk.lookups, voidLookups: walk.voidLookups };
  const message = checkMessage(walk.issues, `SPF record is valid and needs ${walk.lookups} of ${SPF_MAX_LOOKUPS} DNS lookups.`);
  return { summary, check: { status, message }, issues: walk.issues };
}
