import { figures, loadMailauth, REFERENCE_ERROR, runScenario, type ScenarioOutcome } from '../utils/dns-reference-check';
import { REFERENCE_SCENARIOS, type ReferenceScenario } from '../utils/dns-reference-scenarios';

// The scenarios of npm run check:dns as a regression test: the audit gives the RFC verdict on
// every one (or differs on purpose, documented), and differs from mailauth only where the scenario
// documents why.
describe('DNS audit against the RFC verdicts and mailauth (check:dns scenarios)', () => {
  const mailauth = loadMailauth();

  it.each(REFERENCE_SCENARIOS.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const outcome = await runScenario(scenario, mailauth);
    expect(outcome.mailauth).not.toBe(REFERENCE_ERROR);
    if (scenario.mailproofDiffers) {
      // A draft's rule chosen on purpose: Mailproof leaves the RFC verdict, mailauth keeps it.
      expect(outcome.mailproof).not.toBe(scenario.verdict);
      expect(outcome.mailauth).toBe(scenario.verdict);
      return;
    }
    expect({ id: scenario.id, mailproof: outcome.mailproof }).toEqual({ id: scenario.id, mailproof: scenario.verdict });
    if (outcome.mailauth !== null && outcome.mailauth !== outcome.mailproof) expect(scenario.mailauthDiffers).toEqual(expect.any(String));
  });

  it('has no unexplained difference overall, and reaches mailauth on every scenario it compares', async () => {
    const outcomes = await Promise.all(REFERENCE_SCENARIOS.map((scenario) => runScenario(scenario, mailauth)));
    const result = figures(outcomes);
    expect(result.mailproofWrong).toEqual([]);
    expect(result.unexplained).toEqual([]);
    expect(result.mailauthErrors).toEqual([]);
    expect(result.mailproofChosen.map((o) => o.scenario.id)).toEqual(['dmarc/tree-walk']);
    expect(result.compared).toBe(REFERENCE_SCENARIOS.filter((scenario) => scenario.kind !== 'mx').length);
  });

  it('keeps the SPF results apart: every verdict is one RFC 7208 result, and all four evaluated results occur', () => {
    const spf = REFERENCE_SCENARIOS.filter((scenario) => scenario.kind === 'spf').map((scenario) => scenario.verdict);
    for (const verdict of spf) expect(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror']).toContain(verdict);
    expect(new Set(spf)).toEqual(new Set(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror']));
  });
});

describe('figures', () => {
  const scenario = (extra: Partial<ReferenceScenario> = {}): ReferenceScenario =>
    ({ kind: 'dmarc', id: 'dmarc/x', domain: 'x.test', zone: {}, verdict: '', rule: 'RFC', ...extra }) as ReferenceScenario;
  const outcome = (mailproof: string, mailauth: string | null, extra: Partial<ReferenceScenario> = {}): ScenarioOutcome => ({
    scenario: scenario(extra),
    mailproof,
    mailauth,
  });

  it('counts a softfail given for a fail as a difference from the RFC, not as the same class', () => {
    const result = figures([{ scenario: { ...scenario(), kind: 'spf', verdict: 'fail' } as ReferenceScenario, mailproof: 'softfail', mailauth: 'fail' }]);
    expect(result.mailproofMatchesRfc).toBe(0);
    expect(result.mailproofWrong).toHaveLength(1);
    expect(result.unexplained).toHaveLength(1);
  });

  it('counts a documented draft choice as a difference from the RFC, never as a match, and explains it against mailauth', () => {
    const result = figures([outcome('reject', '', { mailproofDiffers: 'DMARCbis tree walk' })]);
    expect(result.mailproofMatchesRfc).toBe(0);
    expect(result.mailproofWrong).toEqual([]);
    expect(result.mailproofChosen).toHaveLength(1);
    expect(result.mailauthMatchesRfc).toBe(1);
    expect(result.unexplained).toEqual([]);
  });

  it('does not let a documented reason excuse a third answer', () => {
    // Mailproof follows its draft, but mailauth is off the RFC too: nothing documents that pair.
    expect(figures([outcome('reject', 'none', { mailproofDiffers: 'draft' })]).unexplained).toHaveLength(1);
    expect(figures([outcome('none', 'reject', { verdict: 'quarantine', mailauthDiffers: 'mailauth reads p= as written' })]).unexplained).toHaveLength(1);
  });

  it('counts a throw of the reference as its error: not a match, not explained by a documented reason', () => {
    const result = figures([outcome('', REFERENCE_ERROR, { mailauthDiffers: 'anything' }), outcome('none', 'none', { verdict: 'none' })]);
    expect(result.mailauthErrors).toHaveLength(1);
    expect(result.mailauthMatchesRfc).toBe(1);
    expect(result.mailproofMatchesMailauth).toBe(1);
    expect(result.unexplained).toHaveLength(1);
  });
});
