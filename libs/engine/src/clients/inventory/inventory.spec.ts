import { CLIENT_IDS } from '../email-client';
import type { BehaviorFixture } from '../models/client-behavior';
import { CLIENT_MODELS } from '../models/client-models';
import { CANIEMAIL_DECISIONS } from './caniemail-decisions';
import { caniemailNoteRows } from './caniemail-rows';
import { SUPPORT_LAYER } from './inventory-types';
import { behaviourInventory, buildInventory, clientInventorySummary, inventoryCountsBySource, noteCoverage } from './inventory';

/** Whether a fixture's expectation holds for the email returned untouched (then the fixture tests nothing). */
function identityPasses(fixture: BehaviorFixture): boolean {
  const { html, expect: e } = fixture;
  if (e.finding) return false;
  const holds = (includes: readonly string[] = [], excludes: readonly string[] = []) =>
    includes.every((text) => html.includes(text)) && excludes.every((text) => !html.includes(text));
  return holds(e.transformIncludes, e.transformExcludes) && holds(e.darkIncludes, e.darkExcludes);
}

describe('behaviour inventory (docs/clients.md)', () => {
  const inventory = behaviourInventory();

  it('gives every caniemail note row of our clients a decision, and every decision a row', () => {
    expect(inventory.undecided).toEqual([]);
    expect(inventory.problems).toEqual([]);
    const noteRows = caniemailNoteRows();
    expect(noteRows.length).toBeGreaterThan(900);
    expect(inventory.rows.filter((r) => r.source === 'caniemail')).toHaveLength(noteRows.length);
  });

  it('fails a row without a decision, a decision without a row and a behaviour the model lacks', () => {
    const { 'css-height#1': removed, ...rest } = CANIEMAIL_DECISIONS;
    expect(removed).toBeDefined();
    const broken = buildInventory({
      ...rest,
      'css-made-up#1': { state: 'modeled', behavior: SUPPORT_LAYER },
      'css-margin#1@gmail-web': { state: 'modeled', behavior: 'gmail-no-such-behaviour' },
    });
    expect(broken.undecided).toEqual(expect.arrayContaining(['css-height#1@yahoo-mail', 'css-height#1@aol']));
    expect(broken.problems).toEqual(
      expect.arrayContaining([
        'caniemail decision css-made-up#1 decides no row',
        "caniemail:css-margin#1@gmail-web: gmail-web's model has no behaviour gmail-no-such-behaviour",
      ]),
    );
  });

  it("models with a behaviour whose fixture the untouched email fails (the support layer's fixture is the probe spec)", () => {
    const checked = new Set<string>();
    for (const row of inventory.rows) {
      if (row.decision.state !== 'modeled' || row.decision.behavior === SUPPORT_LAYER) continue;
      const key = `${row.client} ${row.decision.behavior}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const behavior = CLIENT_MODELS[row.client].behaviors.find((b) => b.id === (row.decision as { behavior: string }).behavior);
      expect(behavior).toBeDefined();
      // Dark models are checked by the invariant suite over every fixture (some dark fixtures compare spellings
      // the untouched email never has; that suite owns them).
      if (behavior!.kind === 'dark') continue;
      // A correction of caniemail that keeps what it would drop (Proton keeps <style>) shows as the email kept.
      if (behavior!.kind === 'sanitize' && !behavior!.removesElements && !behavior!.unwrapsElements) continue;
      expect([key, identityPasses(behavior!.fixture)]).toEqual([key, false]);
    }
    expect(checked.size).toBeGreaterThan(150);
  });

  it('models at least 80% of the caniemail notes that describe a markup or CSS behaviour', () => {
    const coverage = noteCoverage();
    expect(coverage.behaviourRows).toBeGreaterThan(400);
    expect(coverage.percent).toBeGreaterThanOrEqual(80);
  });

  it('gives every not-modeled row a reason category, a reason and a date', () => {
    for (const row of inventory.rows) {
      if (row.decision.state !== 'not-modeled') continue;
      expect(['user-setting', 'not-in-markup', 'disputed', 'superseded', 'gap']).toContain(row.decision.reason);
      expect(row.decision.why.length).toBeGreaterThan(10);
      expect(row.decision.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('counts per client agree with the rows, and the summary sums the sources', () => {
    for (const client of CLIENT_IDS) {
      const bySource = inventoryCountsBySource(client);
      const summary = clientInventorySummary(client);
      const sum = (key: 'modeled' | 'notModeled' | 'notApplicable') => bySource.caniemail[key] + bySource.emailBugs[key] + bySource.vendor[key];
      expect([summary.modeled, summary.notModeled, summary.notApplicable]).toEqual([sum('modeled'), sum('notModeled'), sum('notApplicable')]);
      expect(summary.modeled + summary.notModeled + summary.notApplicable).toBe(inventory.rows.filter((r) => r.client === client).length);
      expect(Object.values(summary.sourcesReadAt).every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
    }
    expect(clientInventorySummary('gmail-web').modeled).toBeGreaterThan(20);
  });
});
