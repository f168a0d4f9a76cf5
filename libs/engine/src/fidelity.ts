import { parse, serialize } from 'parse5';
import { analyzeEmail } from './analyze-email';
import type { ClientId } from './clients/email-client';
import { CLIENT_IDS } from './clients/email-client';
import type { BehaviorFixture, ClientBehavior } from './clients/models/client-behavior';
import { CLIENT_MODELS } from './clients/models/client-models';

/** One fixture of one behavior, run for one client: what `npm run check:fidelity` prints as a row. */
export interface FidelityResult {
  client: ClientId;
  behavior: string;
  kind: ClientBehavior['kind'];
  /** `fixture`: the behavior must show; `counter`: a case where it must not fire. */
  case: 'fixture' | 'counter';
  /** `documented`: an alternative behavior (not the one shown), listed with its evidence only. */
  status: 'PASS' | 'FAIL' | 'documented';
  /** What did not hold, for a FAIL. */
  failures: string[];
  sources: string[];
}

/** What a fixture's expectation is checked against: a client's markup, its dark variant and its findings. */
export interface FixtureOutput {
  html: string;
  dark: string;
  findings: ReadonlyArray<{ rule: string; severity: string; property: string }>;
}

/** The checks of a fixture's expectation that do not hold for `client`. */
export function fixtureFailures(fixture: BehaviorFixture, client: ClientId): string[] {
  const analysis = analyzeEmail(fixture.html, { clients: [client], reports: false });
  return expectationFailures(fixture, {
    html: analysis.transforms[0].html,
    dark: analysis.darkMode[client].html,
    findings: analysis.cssReport.filter((f) => f.client === client),
  });
}

/**
 * A client that returns the email untouched: its markup and dark variant are the email as a browser
 * serializes it, and it reports nothing. A behavior's fixture must fail against it (docs/clients.md,
 * "Invariants"): a fixture the identity passes tests nothing.
 */
export function identityOutput(html: string): FixtureOutput {
  const serialized = serialize(parse(html));
  return { html: serialized, dark: serialized, findings: [] };
}

/** The behaviors (shown ones, per client) whose fixture the identity passes: each is a defect of the fixture. */
export function fixturesTheIdentityPasses(clients: readonly ClientId[] = CLIENT_IDS): Array<{ client: ClientId; behavior: string }> {
  const passing: Array<{ client: ClientId; behavior: string }> = [];
  for (const client of clients) {
    for (const behavior of CLIENT_MODELS[client].behaviors) {
      if (behavior.alternative || keepsOnly(behavior)) continue;
      if (expectationFailures(behavior.fixture, identityOutput(behavior.fixture.html)).length === 0) passing.push({ client, behavior: behavior.id });
    }
  }
  return passing;
}

/**
 * A correction that only says the client keeps what caniemail says it drops (Proton keeps its selectors):
 * the identity is right about it by nature; its fixture fails against caniemail's view instead.
 */
function keepsOnly(behavior: ClientBehavior): boolean {
  if (behavior.kind !== 'sanitize' || behavior.removesElements?.size || behavior.unwrapsElements?.size) return false;
  const overrides = Object.values(behavior.supportOverrides ?? {});
  return overrides.length > 0 && overrides.every((level) => level === 'supported');
}

function expectationFailures(fixture: BehaviorFixture, output: FixtureOutput): string[] {
  const { html, dark, findings } = output;
  const failures: string[] = [];
  const { expect } = fixture;
  for (const text of expect.transformIncludes ?? []) if (!html.includes(text)) failures.push(`markup lacks ${JSON.stringify(text)}`);
  for (const text of expect.transformExcludes ?? []) if (html.includes(text)) failures.push(`markup still has ${JSON.stringify(text)}`);
  for (const text of expect.darkIncludes ?? []) if (!dark.includes(text)) failures.push(`dark variant lacks ${JSON.stringify(text)}`);
  for (const text of expect.darkExcludes ?? []) if (dark.includes(text)) failures.push(`dark variant still has ${JSON.stringify(text)}`);
  if (expect.finding) {
    const { rule, severity } = expect.finding;
    if (!findings.some((f) => f.rule === rule && (severity === undefined || f.severity === severity)))
      failures.push(`no ${severity ?? ''} finding ${rule}`.replace('  ', ' '));
  }
  if (expect.noFindingFor) {
    const label = expect.noFindingFor;
    const unwanted = findings.filter((f) => f.rule === label || f.property === label || f.property.startsWith(`${label} `));
    if (unwanted.length > 0) failures.push(`unexpected finding ${unwanted[0].rule} for ${unwanted[0].property}`);
  }
  return failures;
}

/** Every behavior of every client model, its fixture (and counter-fixture) run through the engine. */
export function checkFidelity(clients: readonly ClientId[] = CLIENT_IDS): FidelityResult[] {
  const results: FidelityResult[] = [];
  for (const client of clients) {
    for (const behavior of CLIENT_MODELS[client].behaviors) {
      const sources = behavior.evidence.map((e) => e.url);
      if (behavior.alternative) {
        results.push({ client, behavior: behavior.id, kind: behavior.kind, case: 'fixture', status: 'documented', failures: [], sources });
        continue;
      }
      const cases: Array<['fixture' | 'counter', BehaviorFixture | undefined]> = [
        ['fixture', behavior.fixture],
        ['counter', behavior.counterFixture],
      ];
      for (const [kind, fixture] of cases) {
        if (!fixture) continue;
        const failures = fixtureFailures(fixture, client);
        results.push({ client, behavior: behavior.id, kind: behavior.kind, case: kind, status: failures.length === 0 ? 'PASS' : 'FAIL', failures, sources });
      }
    }
  }
  return results;
}
