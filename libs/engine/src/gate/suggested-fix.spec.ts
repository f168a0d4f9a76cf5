import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as findingLedger from '../autofix/finding-ledger';
import { fixEmail, resolvedByFixes } from '../autofix/fix-email';
import { CLIENT_IDS } from '../clients/email-client';
import { analyzeEmail, analyzeEmailKeepingParts } from '../analyze-email';
import { parseEmail } from '../parse/parse-email';
import { gateSuggestedFix, safeFixTargetCount } from './suggested-fix';
import { email } from './testing/gate-fixtures';

/** The plain fixture's table without role="presentation" and a font stack without a generic family: both have a safe fix. */
const FIXABLE = email('<p style="font-family: \'Brand Sans\'">Hi</p>').replace('<table role="presentation" ', '<table ');

describe('gateSuggestedFix', () => {
  it('counts the findings the safe fixes resolve and names the request that fixes them', () => {
    const suggested = gateSuggestedFix(FIXABLE, { format: 'html', clients: ['outlook-windows-legacy', 'gmail-web'] });
    const resolved = fixEmail(FIXABLE, { clients: ['gmail-web', 'outlook-windows-legacy'], tiers: ['safe'] }).resolved;
    expect(resolved['layout-table-role']).toBe(1);
    expect(suggested).toEqual({
      fixable: Object.values(resolved).reduce((sum, count) => sum + count, 0),
      // Clients in canonical order, as the fix request's answer lists them.
      request: { method: 'POST', path: '/api/fix', body: { format: 'html', clients: ['gmail-web', 'outlook-windows-legacy'], tiers: ['safe'] } },
    });
    expect(suggested?.fixable).toBeGreaterThanOrEqual(2);
  });

  it('names every client when the gate checked all of them', () => {
    expect(gateSuggestedFix(FIXABLE, { format: 'html', clients: null })?.request.body.clients).toEqual(CLIENT_IDS);
  });

  it('suggests nothing when the safe fixes resolve no finding', () => {
    expect(gateSuggestedFix(email(), { format: 'html', clients: null })).toBeNull();
    // Fixed once, nothing is left to fix.
    const fixed = fixEmail(FIXABLE, { tiers: ['safe'] }).html;
    expect(gateSuggestedFix(fixed, { format: 'html' })).toBeNull();
  });

  it('counts the findings the safe fixes target: none where the fixer resolves none, at least what it resolves otherwise', () => {
    const fixed = fixEmail(FIXABLE, { tiers: ['safe'] }).html;
    const flex = email('<div style="display:flex">Hi</div>');
    for (const html of [email(), fixed, flex, FIXABLE]) {
      const targets = safeFixTargetCount(analyzeEmail(html, { format: 'html' }));
      const suggested = gateSuggestedFix(html, { format: 'html' });
      if (targets === 0) expect(suggested).toBeNull();
      else expect(targets).toBeGreaterThanOrEqual(suggested?.fixable ?? 0);
    }
    expect(safeFixTargetCount(analyzeEmail(email(), { format: 'html' }))).toBe(0);
    expect(safeFixTargetCount(analyzeEmail(FIXABLE, { format: 'html' }))).toBeGreaterThanOrEqual(gateSuggestedFix(FIXABLE, { format: 'html' })!.fixable);
    // Reports off: the count is unknown, never a false "nothing to fix".
    expect(safeFixTargetCount(analyzeEmail(FIXABLE, { format: 'html', reports: false }))).toBeNull();
  });
});

describe('resolvedByFixes (what gateSuggestedFix counts)', () => {
  // Whole emails of the repository's fixtures: fixes kept, fixes rolled back, several passes.
  const fixtureEmails = [
    'cli/with-errors.html',
    'cli/warnings-only.html',
    'cli/clean.html',
    'visual-pairs/newsletter-flex/v1.html',
    'visual-pairs/promo-cssvar/v1.html',
  ].map((name) => readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', name), 'utf8'));

  it("is fixEmail's `resolved` exactly, for every client set and tier", () => {
    // Each fixture as written, and with what safe rules fix taken out of it (the tables' role, the document's language).
    const unfixed = fixtureEmails.map((html) => html.replaceAll(' role="presentation"', '').replace(/<html([^>]*) lang="[^"]*"/, '<html$1'));
    const cases = [FIXABLE, email(), email('<div style="display:flex">Hi</div>'), ...fixtureEmails, ...unfixed];
    let resolvedSomething = 0;
    for (const html of cases) {
      for (const options of [
        { tiers: ['safe'] as const },
        { tiers: ['safe', 'layout'] as const },
        { clients: ['outlook-windows-legacy', 'gmail-web'] as const, tiers: ['safe'] as const },
      ]) {
        const expected = fixEmail(html, { ...options, clients: options.clients ? [...options.clients] : undefined, tiers: [...options.tiers] }).resolved;
        expect(resolvedByFixes(html, { ...options, clients: options.clients ? [...options.clients] : undefined, tiers: [...options.tiers] })).toEqual(expected);
        if (Object.keys(expected).length > 0) resolvedSomething++;
      }
    }
    // The comparison means something: several emails have findings the fixes resolve.
    expect(resolvedSomething).toBeGreaterThanOrEqual(10);
  });

  it('validates its options as fixEmail does', () => {
    expect(() => resolvedByFixes(FIXABLE, { tiers: ['risky' as never] })).toThrow(/Unknown fix tier/);
  });
});

describe("the gate's analysis as the fixer's first ledger", () => {
  const fixture = (name: string) => readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', name), 'utf8');
  // Every whole HTML email of the repository's fixtures of this kind, as written and with the fixable parts taken out.
  const written = [
    'cli/with-errors.html',
    'cli/warnings-only.html',
    'cli/clean.html',
    'cli/front-matter.html',
    'ci/broken.html',
    'ci/shipped.html',
    'visual-pairs/newsletter-flex/v1.html',
    'visual-pairs/promo-cssvar/v1.html',
    'visual-pairs/receipt-grid/v1.html',
    'visual-pairs/promo-bgimage/v1.html',
  ].map(fixture);
  const unfixed = written.map((html) => html.replaceAll(' role="presentation"', '').replace(/<html([^>]*) lang="[^"]*"/, '<html$1'));
  const emails = [FIXABLE, email('<div style="display:flex">Hi</div>'), ...written, ...unfixed];
  const warnings = [{ message: 'mj-column: attribute "padding-x" is illegal', line: 3, column: 7 }];
  const optionSets = [
    { format: 'html' as const, tiers: ['safe' as const] },
    { format: 'html' as const, clients: ['outlook-windows-legacy', 'gmail-web'] as const, tiers: ['safe' as const] },
    { format: 'html' as const, tiers: ['safe' as const, 'layout' as const] },
    // A compiled template with the compiler's warnings: findings of the template report, in every ledger.
    { format: 'mjml' as const, tiers: ['safe' as const], compileWarnings: warnings },
  ];

  afterEach(() => jest.restoreAllMocks());

  it('holds what buildFindingLedger finds, for every email, client set and compile warnings', () => {
    for (const html of emails) {
      for (const options of optionSets) {
        const clients = options.clients ? [...options.clients] : undefined;
        const { parts } = analyzeEmailKeepingParts(html, { format: options.format, clients, compileWarnings: options.compileWarnings });
        for (const fixerWarnings of [options.compileWarnings ?? [], [], warnings]) {
          const reused = findingLedger.findingLedgerOfAnalysis(parts!, fixerWarnings);
          const built = findingLedger.buildFindingLedger(parseEmail(html), options.format, parts!.clients, fixerWarnings);
          expect(reused.findings).toEqual(built.findings);
          expect(reused.score).toBe(built.score);
        }
      }
    }
  });

  it('leaves fixEmail and resolvedByFixes exactly as they are without it, and spares their first analysis', () => {
    const reuses = jest.spyOn(findingLedger, 'findingLedgerOfAnalysis');
    const analyses = jest.spyOn(findingLedger, 'buildFindingLedger');
    let resolvedSomething = 0;
    for (const html of emails) {
      for (const options of optionSets) {
        const fixOptions = { ...options, clients: options.clients ? [...options.clients] : undefined, tiers: [...options.tiers] };
        const { parts } = analyzeEmailKeepingParts(html, { format: options.format, clients: fixOptions.clients, compileWarnings: options.compileWarnings });
        analyses.mockClear();
        const expected = fixEmail(html, fixOptions);
        const fresh = analyses.mock.calls.length;
        analyses.mockClear();
        reuses.mockClear();
        expect(fixEmail(html, fixOptions, parts!)).toEqual(expected);
        expect(reuses).toHaveBeenCalledTimes(1);
        expect(analyses).toHaveBeenCalledTimes(fresh - 1);
        expect(resolvedByFixes(html, fixOptions, parts!)).toEqual(expected.resolved);
        expect(gateSuggestedFix(html, { ...fixOptions, analyzed: parts! })).toEqual(gateSuggestedFix(html, fixOptions));
        if (Object.keys(expected.resolved).length > 0) resolvedSomething++;
      }
    }
    expect(resolvedSomething).toBeGreaterThanOrEqual(10);
  });

  it('is not used for another email, format or client set: the fixer analyzes the email itself', () => {
    const reuses = jest.spyOn(findingLedger, 'findingLedgerOfAnalysis');
    const { parts } = analyzeEmailKeepingParts(FIXABLE, { format: 'html', clients: ['gmail-web', 'outlook-windows-legacy'] });
    const other = email('<p style="font-family: \'Brand Sans\'">Bye</p>');
    expect(fixEmail(other, { clients: ['gmail-web', 'outlook-windows-legacy'] }, parts!)).toEqual(
      fixEmail(other, { clients: ['gmail-web', 'outlook-windows-legacy'] }),
    );
    expect(fixEmail(FIXABLE, { clients: ['gmail-web'] }, parts!)).toEqual(fixEmail(FIXABLE, { clients: ['gmail-web'] }));
    expect(fixEmail(FIXABLE, { format: 'mjml', clients: ['gmail-web', 'outlook-windows-legacy'] }, parts!)).toEqual(
      fixEmail(FIXABLE, { format: 'mjml', clients: ['gmail-web', 'outlook-windows-legacy'] }),
    );
    expect(reuses).not.toHaveBeenCalled();
    // With reports off the analysis keeps nothing to reuse.
    expect(analyzeEmailKeepingParts(FIXABLE, { reports: false }).parts).toBeNull();
  });

  it('is the very analysis analyzeEmail makes', () => {
    for (const html of [FIXABLE, ...written.slice(0, 3)])
      expect(analyzeEmailKeepingParts(html, { format: 'mjml', compileWarnings: warnings }).analysis).toEqual(
        analyzeEmail(html, { format: 'mjml', compileWarnings: warnings }),
      );
  });
});
