import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixEmail, resolvedByFixes } from '../autofix/fix-email';
import { CLIENT_IDS } from '../clients/email-client';
import { analyzeEmail } from '../analyze-email';
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
