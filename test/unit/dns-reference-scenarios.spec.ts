import { figures, loadMailauth, runScenario } from '../utils/dns-reference-check';
import { REFERENCE_SCENARIOS } from '../utils/dns-reference-scenarios';

// The scenarios of npm run check:dns as a regression test: the audit gives the RFC verdict on
// every one, and differs from mailauth only where the scenario documents why.
describe('DNS audit against the RFC verdicts and mailauth (check:dns scenarios)', () => {
  const mailauth = loadMailauth();

  it.each(REFERENCE_SCENARIOS.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const outcome = await runScenario(scenario, mailauth);
    expect({ id: scenario.id, mailproof: outcome.mailproof }).toEqual({ id: scenario.id, mailproof: scenario.verdict });
    if (outcome.mailauth !== null && outcome.mailauth !== outcome.mailproof) expect(scenario.mailauthDiffers).toEqual(expect.any(String));
  });

  it('has no unexplained difference overall, and reaches mailauth on every scenario it compares', async () => {
    const outcomes = await Promise.all(REFERENCE_SCENARIOS.map((scenario) => runScenario(scenario, mailauth)));
    const result = figures(outcomes);
    expect(result.mailproofWrong).toEqual([]);
    expect(result.unexplained).toEqual([]);
    expect(result.compared).toBe(REFERENCE_SCENARIOS.filter((scenario) => scenario.kind !== 'mx').length);
  });
});
