import { auditDomain } from '../../libs/engine/src/dns/audit-domain';
import type { DeliverabilityResult } from '../../libs/engine/src/dns/deliverability-result';
import type { DnsLookup } from '../../libs/engine/src/dns/dns-resolver.port';
import { StaticZoneResolver } from '../../libs/engine/src/dns/static-zone-resolver';
import type { ReferenceScenario } from './dns-reference-scenarios';

/** A sender no scenario lists (TEST-NET-3): SPF is evaluated through every term of the record. */
export const UNLISTED_SENDER_IP = '203.0.113.250';

/** mailauth's verdict when it threw: never an RFC verdict, so it counts against mailauth. */
export const REFERENCE_ERROR = 'error';

export interface ScenarioOutcome {
  scenario: ReferenceScenario;
  mailproof: string;
  /** null where mailauth evaluates nothing of the kind (MX); REFERENCE_ERROR when it threw. */
  mailauth: string | null;
  /** What mailauth threw, when it did. */
  mailauthError?: string;
}

type MailauthResolver = (name: string, type: string) => Promise<unknown[]>;

/**
 * mailauth's resolver contract (node:dns's resolve) over the zone the audit reads: the same answers
 * through StaticZoneResolver, NXDOMAIN and NODATA as ENOTFOUND and ENODATA, failures as ETIMEOUT.
 */
export function mailauthResolver(zone: StaticZoneResolver): MailauthResolver {
  const asAnswer = <T>(lookup: DnsLookup<T>, name: string): T[] => {
    if (lookup.status === 'ok') return lookup.records;
    const code = lookup.status === 'nxdomain' ? 'ENOTFOUND' : lookup.status === 'nodata' ? 'ENODATA' : lookup.reason === 'servfail' ? 'ESERVFAIL' : 'ETIMEOUT';
    throw Object.assign(new Error(`${code} ${name}`), { code });
  };
  return async (name, type) => {
    switch (type) {
      case 'TXT':
        return asAnswer(await zone.txt(name), name).map((text) => [text]);
      case 'MX':
        return asAnswer(await zone.mx(name), name);
      case 'A':
        return asAnswer(await zone.a(name), name);
      case 'AAAA':
        return asAnswer(await zone.aaaa(name), name);
      default:
        // PTR and anything else: the fixture zones hold none.
        throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    }
  };
}

/** Mailproof's audit in the scenario's terms (see dns-reference-scenarios.ts). */
export function mailproofVerdict(scenario: ReferenceScenario, result: DeliverabilityResult): string {
  const rules = new Set(result.issues.map((issue) => issue.rule));
  switch (scenario.kind) {
    case 'spf':
      // The audit's own result for an unlisted sender; '' (it depends on the message) matches no verdict.
      return result.spf.result || '(unknown)';
    case 'dmarc':
      return result.dmarc.policy;
    case 'mx':
      if (rules.has('mx_null')) return 'null';
      if (rules.has('mx_implicit')) return 'implicit';
      return rules.has('mx_missing') || rules.has('mx_domain_missing') ? 'none' : 'mx';
  }
}

interface MailauthModules {
  spf: (options: Record<string, unknown>) => Promise<{ status: { result: string } }>;
  getDmarcRecord: (domain: string, resolver: MailauthResolver) => Promise<false | Record<string, unknown>>;
}

/** mailauth's evaluation in the scenario's terms: its SPF result, or the DMARC policy it would apply. */
export async function mailauthVerdict(scenario: ReferenceScenario, mailauth: MailauthModules): Promise<string | null> {
  const resolver = mailauthResolver(new StaticZoneResolver(scenario.zone));
  switch (scenario.kind) {
    case 'spf': {
      const { status } = await mailauth.spf({
        sender: `postmaster@${scenario.domain}`,
        ip: UNLISTED_SENDER_IP,
        helo: 'client.example',
        mta: 'check-dns',
        resolver,
      });
      return status.result;
    }
    case 'dmarc': {
      // As lib/dmarc/verify.js picks it: sp= for a record found at the organizational domain, else p=.
      // It answers false when there is no record; a throw is its failure, not "no policy".
      const record = await mailauth.getDmarcRecord(scenario.domain, resolver);
      if (!record) return '';
      const policy = record.isOrgRecord && record.sp ? record.sp : record.p;
      return typeof policy === 'string' ? policy.trim().toLowerCase() : '';
    }
    case 'mx':
      return null;
  }
}

export function loadMailauth(): MailauthModules {
  // Dev dependency, CommonJS, read at call time so the engine tests never load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- mailauth's internal modules have no types or exports map
  const { spf } = require('mailauth/lib/spf');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- mailauth's internal modules have no types or exports map
  const getDmarcRecord = require('mailauth/lib/dmarc/get-dmarc-record');
  return { spf, getDmarcRecord };
}

export async function runScenario(scenario: ReferenceScenario, mailauth: MailauthModules): Promise<ScenarioOutcome> {
  const result = await auditDomain(scenario.domain, new StaticZoneResolver(scenario.zone));
  const mailproof = mailproofVerdict(scenario, result);
  try {
    return { scenario, mailproof, mailauth: await mailauthVerdict(scenario, mailauth) };
  } catch (error) {
    return { scenario, mailproof, mailauth: REFERENCE_ERROR, mailauthError: error instanceof Error ? error.message : String(error) };
  }
}

export interface CheckFigures {
  scenarios: number;
  mailproofMatchesRfc: number;
  /** Scenarios mailauth evaluates (SPF and DMARC). */
  compared: number;
  mailproofMatchesMailauth: number;
  mailauthMatchesRfc: number;
  /** Mailproof differs from the RFC verdict without a documented reason: a defect. */
  mailproofWrong: ScenarioOutcome[];
  /** Mailproof differs from the RFC verdict on purpose (mailproofDiffers): counted apart, never as a match. */
  mailproofChosen: ScenarioOutcome[];
  /** mailauth threw. */
  mailauthErrors: ScenarioOutcome[];
  /** Mailproof and mailauth differ. */
  differences: ScenarioOutcome[];
  /** Differences with no documented reason (mailauthDiffers): a defect of the check's target. */
  unexplained: ScenarioOutcome[];
}

export function figures(outcomes: ScenarioOutcome[]): CheckFigures {
  const compared = outcomes.filter((o) => o.mailauth !== null);
  const differences = compared.filter((o) => o.mailauth !== o.mailproof);
  const offRfc = outcomes.filter((o) => o.mailproof !== o.scenario.verdict);
  // A difference is explained when exactly one side leaves the RFC verdict and the scenario says why.
  const explained = (o: ScenarioOutcome) =>
    o.mailauth !== REFERENCE_ERROR &&
    ((o.mailproof === o.scenario.verdict && Boolean(o.scenario.mailauthDiffers)) ||
      (o.mailauth === o.scenario.verdict && Boolean(o.scenario.mailproofDiffers)));
  return {
    scenarios: outcomes.length,
    mailproofMatchesRfc: outcomes.length - offRfc.length,
    compared: compared.length,
    mailproofMatchesMailauth: compared.length - differences.length,
    mailauthMatchesRfc: compared.filter((o) => o.mailauth === o.scenario.verdict).length,
    mailproofWrong: offRfc.filter((o) => !o.scenario.mailproofDiffers),
    mailproofChosen: offRfc.filter((o) => Boolean(o.scenario.mailproofDiffers)),
    mailauthErrors: outcomes.filter((o) => o.mailauth === REFERENCE_ERROR),
    differences,
    unexplained: differences.filter((o) => !explained(o)),
  };
}
