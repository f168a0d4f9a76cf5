import { analyzeEmail } from '@mailproof/engine';

// scripts/lib/analysis-findings.js is plain JS, required by scripts/check-fix.js.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const { findingsOf, introducedFindings } = require('../../scripts/lib/analysis-findings') as {
  findingsOf(analysis: unknown): Array<{ report: string; key: string; severity: string }>;
  introducedFindings(
    before: unknown,
    after: unknown,
  ): { problems: number; infos: number; byReport: Record<string, { problems: number; infos: number }>; examples: string[] };
};

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>March update</title>${head}</head><body style="background:#ffffff;color:#222222">${body}</body></html>`;
const analyze = (html: string) => analyzeEmail(html, { clients: ['gmail-web', 'apple-mail-ios', 'outlook-windows-legacy'] });

describe('findings of a full analysis, before and after a change (check:fix)', () => {
  const plain = analyze(page('<p>Hello Sam, here is what changed this month.</p>'));

  it('finds nothing new when nothing changed, and when only lines moved', () => {
    expect(introducedFindings(plain, plain)).toMatchObject({ problems: 0, infos: 0 });
    const moved = analyze(page('\n\n\n<p>Hello Sam, here is what changed this month.</p>'));
    expect(introducedFindings(plain, moved)).toMatchObject({ problems: 0 });
  });

  it('counts a new accessibility error under its report', () => {
    const worse = analyze(page('<p>Hello Sam, here is what changed this month.</p><img src="https://acme.test/chart.png" width="400" height="300">'));
    const introduced = introducedFindings(plain, worse);
    expect(introduced.byReport.accessibilityReport?.problems).toBeGreaterThan(0);
    expect(introduced.examples.join(' ')).toContain('img-missing-alt');
    const faint = analyze(page('<p>Hello Sam, here is what changed this month.</p><p style="color:#eeeeee">Small print nobody can read.</p>'));
    expect(introducedFindings(plain, faint).byReport.accessibilityReport?.problems).toBeGreaterThan(0);
  });

  it('counts dark-contrast failures per client and text (those past the listing limit too) and rendered mobile-contrast failures', () => {
    const issue = (text: string) => ({ rule: 'low-contrast', severity: 'warning', message: `${text} at line 3`, element: '<p class="a">', text, line: 3 });
    const dark = (issues: object[], omitted = 0) => ({
      darkContrast: { clients: { 'gmail-ios': { checked: 9, issues, omitted } }, total: 0, worstClient: null },
    });
    expect(introducedFindings(dark([issue('Total')]), dark([{ ...issue('Total'), line: 9 }])).problems).toBe(0);
    expect(introducedFindings(dark([issue('Total')]), dark([issue('Total'), issue('Paid')]))).toMatchObject({
      problems: 1,
      byReport: { darkContrast: { problems: 1 } },
    });
    expect(introducedFindings(dark([]), dark([], 2)).problems).toBe(2);
    const mobile = (samples: string[]) => ({
      mobileContrast: {
        clients: [{ clientId: 'apple-mail-ios', mode: 'dark', checked: 4, failures: samples.map((sample) => ({ tag: 'p', sample })), overImage: 0 }],
      },
    });
    expect(introducedFindings(mobile(['Total']), mobile(['Total', 'Paid']))).toMatchObject({ problems: 1, byReport: { mobileContrast: { problems: 1 } } });
  });

  it('counts compatibility findings per client and property, and never counts a resolved one', () => {
    const flex = analyze(page('<div style="display:flex"><p>Hello Sam, here is what changed this month.</p></div>'));
    const added = introducedFindings(plain, flex);
    expect(added.byReport.css?.problems ?? 0).toBeGreaterThan(0);
    expect(introducedFindings(flex, plain).problems).toBe(0);
  });

  it('keys a finding by what it is about, not by its line or message', () => {
    for (const finding of findingsOf(plain)) expect(finding.key).not.toMatch(/\d+:\d+/);
  });
});
