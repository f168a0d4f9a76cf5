import { analyzeEmail } from '../analyze-email';
import { getClientSupport } from '../clients/client-support';
import type { ClientId } from '../clients/email-client';
import { parseCssColor, luminanceOf } from './context/color-utils';
import type { DarkContrastReport } from './dark-contrast';

/** #767676 on white passes AA (4.54:1); partial inversion darkens the white but leaves mid grey alone. */
const MID_GREY =
  '<html lang="en"><head><title>t</title></head><body style="background:#ffffff"><p style="color:#767676">Mid grey text on white</p></body></html>';
const DARK_MEDIA =
  '<html><head><meta name="color-scheme" content="light dark"><style>@media (prefers-color-scheme: dark) { .card { background:#000000 !important } }</style></head><body><div class="card" style="background:#ffffff;color:#111111">Text</div></body></html>';

function darkContrast(html: string, clients?: ClientId[]): DarkContrastReport {
  const report = analyzeEmail(html, { clients }).darkContrast;
  if (!report) throw new Error('darkContrast missing');
  return report;
}

const isDark = (hex: string): boolean => luminanceOf(parseCssColor(hex)!) < 0.1;

describe('darkContrast (from the dark-mode hand-over)', () => {
  it('flags text that passes as written but fails once a client inverts the email, with both colors', () => {
    const report = darkContrast(MID_GREY, ['gmail-web', 'gmail-ios', 'outlook-ios', 'apple-mail-ios']);
    expect(Object.keys(report.clients)).toEqual(['apple-mail-ios', 'gmail-ios', 'gmail-web', 'outlook-ios']);
    // No inversion: the email keeps its colors, which pass.
    expect(report.clients['gmail-web']).toEqual({ checked: 1, issues: [], omitted: 0 });
    expect(report.clients['apple-mail-ios'].issues).toEqual([]);
    const partial = report.clients['outlook-ios'].issues;
    expect(partial).toEqual([
      expect.objectContaining({
        rule: 'dark-low-contrast',
        color: '#767676',
        required: 4.5,
        text: 'Mid grey text on white',
        element: '<p style="color:#767676">',
      }),
    ]);
    expect(isDark(partial[0].background)).toBe(true);
    expect(partial[0].ratio).toBeLessThan(4.5);
    expect(partial[0].message).toMatch(/^In dark mode: /);
    // Full inversion flips the grey as well and ends further below 3:1.
    const full = report.clients['gmail-ios'].issues;
    expect(full).toEqual([expect.objectContaining({ severity: 'error' })]);
    expect(full[0].color).not.toBe('#767676');
    expect(report.total).toBe(2);
    expect(report.worstClient).toBe('gmail-ios');
  });

  it("gives text the email never colored the client's dark-mode default when the email's own background is recolored", () => {
    // Black-on-white by default: the inverting clients darken the body's white and lighten the default text,
    // as they recolor computed colors; nothing may be flagged at 1.2:1.
    const html =
      '<html lang="en"><head><title>t</title></head><body style="background:#ffffff"><p>Default text</p><a href="https://example.com/x">A link</a></body></html>';
    const clients: ClientId[] = ['gmail-ios', 'gmail-android', 'outlook-web', 'outlook-windows-legacy', 'superhuman'];
    const analysis = analyzeEmail(html, { clients });
    expect(analysis.darkContrast!.total).toBe(0);
    for (const client of clients) {
      const body = analysis.darkMode[client].html.match(/<body[^>]*>/)![0];
      expect(body).toMatch(/color: #e0e0e0/);
      expect(isDark(body.match(/background: (#[0-9a-f]{6})/)![1])).toBe(true);
    }
    // A color of the email's own (here from <style>) is recolored instead, never overridden by the default.
    const styled = analyzeEmail('<html><head><style>body { color: #222222 }</style></head><body style="background:#ffffff"><p>Styled</p></body></html>', {
      clients: ['outlook-windows-legacy'],
    });
    expect(styled.darkMode['outlook-windows-legacy'].html.match(/<body[^>]*>/)![0]).not.toMatch(/#e0e0e0/);
    expect(styled.darkContrast!.total).toBe(0);
  });

  it('gives clients without inversion exactly the contrast findings of the email as written', () => {
    const analysis = analyzeEmail('<html><body><p style="color:#999999">Light grey</p><p>Fine</p></body></html>', { clients: ['gmail-web', 'yahoo-mail'] });
    const light = analysis.accessibilityReport!.issues.filter((issue) => issue.rule === 'low-contrast');
    const dark = analysis.darkContrast!.clients['gmail-web'].issues;
    expect(light).toHaveLength(1);
    expect(dark.map((issue) => [issue.color, issue.background, issue.ratio])).toEqual(
      light.map((issue) => [(issue as { color?: string }).color, (issue as { background?: string }).background, (issue as { ratio?: number }).ratio]),
    );
    expect(analysis.darkContrast!.clients['gmail-web'].checked).toBe(2);
  });

  it("applies the email's own dark media query only for clients that honor it", () => {
    const report = darkContrast(DARK_MEDIA, ['apple-mail-ios', 'samsung-mail', 'outlook-web', 'gmail-web']);
    expect(report.clients['apple-mail-ios'].issues.map((issue) => [issue.color, issue.background])).toEqual([['#111111', '#000000']]);
    // Samsung Email follows the email's dark rules when it has them.
    expect(report.clients['samsung-mail'].issues.map((issue) => [issue.color, issue.background])).toEqual([['#111111', '#000000']]);
    // Outlook.com inverts instead: white turns dark and near-black text turns light.
    expect(report.clients['outlook-web'].issues).toEqual([]);
    expect(report.clients['gmail-web'].issues).toEqual([]);
  });

  it('applies [data-ogsc] rules to the elements Outlook.com and the Outlook apps recolor, and only in their variants', () => {
    const html =
      '<html><head><style>[data-ogsc] .fix { color:#ffffff !important }</style></head><body style="background:#ffffff">' +
      '<div style="color:#000000"><p class="fix" style="color:#767676">Fixed for Outlook.com</p></div></body></html>';
    const report = darkContrast(html, ['outlook-web', 'outlook-windows', 'outlook-ios', 'outlook-android', 'samsung-mail']);
    expect(report.clients['outlook-web'].issues).toEqual([]);
    expect(report.clients['outlook-windows'].issues).toEqual([]);
    // The apps mark what they recolor too (caniemail's prefers-color-scheme note 3).
    expect(report.clients['outlook-ios'].issues).toEqual([]);
    expect(report.clients['outlook-android'].issues).toEqual([]);
    // Another partially inverting client adds no marks: the rule never applies there.
    expect(report.clients['samsung-mail'].issues).toEqual([expect.objectContaining({ color: '#767676' })]);
  });

  it("uses each client's own transform: Outlook Classic drops rgba() and falls back to the earlier declaration", () => {
    const html = '<html><body style="background:#ffffff"><p style="color:#999999; color:rgba(0,0,0,0.87)">Fallback color for Outlook</p></body></html>';
    const report = darkContrast(html, ['gmail-ios', 'outlook-windows-legacy', 'thunderbird']);
    // The same full inversion everywhere, but only the Word engine paints the inverted #999999.
    expect(report.clients['gmail-ios'].issues).toEqual([]);
    expect(report.clients.thunderbird.issues).toEqual([]);
    expect(report.clients['outlook-windows-legacy'].issues).toEqual([expect.objectContaining({ severity: 'error', text: 'Fallback color for Outlook' })]);
  });

  it('resolves var() per client from caniemail: the variable where custom properties work, the previous declaration elsewhere (issue 19)', () => {
    const html =
      '<html><head><style>:root { --ink: #111111; }</style></head><body style="background:#ffffff"><p style="color:#999999; color:var(--ink)">Ink from a variable</p></body></html>';
    const clients: ClientId[] = ['gmail-web', 'apple-mail-macos'];
    const levels = clients.map((client) => getClientSupport('css-variables', client).level);
    // The two clients must disagree for this test to mean anything.
    expect(new Set(levels).size).toBe(2);
    const report = darkContrast(html, clients);
    clients.forEach((client, i) => {
      // #999999 on white fails; the variable's #111111 passes.
      expect(report.clients[client].issues.length).toBe(levels[i] === 'unsupported' ? 1 : 0);
    });
  });

  it("resolves light-dark() to its dark value only where the client honors the email's dark scheme and supports it (issue 19)", () => {
    const html = (meta: string) =>
      `<html><head>${meta}<style>@media (prefers-color-scheme: dark) { .unused { color: #ffffff } }</style></head><body style="background:#ffffff"><p style="color:#000000; background-color:light-dark(#ffffff, #000000)">Black text on a light-dark background</p></body></html>`;
    expect(getClientSupport('css-function-light-dark', 'apple-mail-macos').level).toBe('supported');
    const optedIn = darkContrast(html('<meta name="color-scheme" content="light dark">'), ['apple-mail-macos', 'gmail-web']);
    expect(optedIn.clients['apple-mail-macos'].issues).toEqual([expect.objectContaining({ color: '#000000', background: '#000000' })]);
    expect(optedIn.clients['gmail-web'].issues).toEqual([]);
    // Without a dark color scheme the light value applies even in dark mode.
    expect(darkContrast(html(''), ['apple-mail-macos']).clients['apple-mail-macos'].issues).toEqual([]);
  });

  it('lists at most 100 issues per client and counts the rest', () => {
    const html = `<html><body style="background:#ffffff">${'<p style="color:#767676">grey</p>'.repeat(130)}</body></html>`;
    const report = darkContrast(html, ['outlook-ios']);
    expect(report.clients['outlook-ios'].issues).toHaveLength(100);
    expect(report.clients['outlook-ios'].omitted).toBe(30);
    expect(report.total).toBe(130);
  });

  it('is empty-handed but present when the email has no text', () => {
    expect(darkContrast('<html><body><img src="https://a.test/x.png" alt=""></body></html>', ['gmail-ios'])).toEqual({
      clients: { 'gmail-ios': { checked: 0, issues: [], omitted: 0 } },
      total: 0,
      worstClient: null,
    });
  });
});
