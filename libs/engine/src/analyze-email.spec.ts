import { analyzeEmail } from './analyze-email';
import { CssFinding } from './analysis/css-finding';
import { CLIENT_IDS } from './clients/email-client';
import { EngineLimitError } from './errors';
import { EMAIL_FORMATS, EmailFormat } from './fixes/code-fix';
import { ENGINE_LIMITS } from './limits';

/** Golden fixtures written for the project: one per feature family. */
const FIXTURES = {
  layout: `<!DOCTYPE html><html><head></head><body>
<div style="display:flex; gap:16px"><div style="width:50%">Left</div><div>Right</div></div>
</body></html>`,
  styleBlock: `<html><head><style>.title { color: #111827; font-size: 24px } .cta:hover { color: red }
@media (max-width: 600px) { .title { font-size: 18px !important } }</style></head>
<body><h1 class="title">Hello</h1><a class="cta" href="https://example.com">Go</a></body></html>`,
  removedElements: `<html><body><svg width="10" height="10"></svg><form action="/x"><input type="text" name="q"></form>
<script>alert(1)</script><iframe src="https://example.com"></iframe><link rel="stylesheet" href="a.css"><p>Text</p></body></html>`,
  backgrounds: `<table><tr><td style="background-image: linear-gradient(#fff, #000); border-radius: 8px; box-shadow: 0 1px 2px #000">Hi</td></tr></table>`,
  vmlFallback: `<table><tr><td style="border-radius: 8px; background-image: url(a.jpg)">
<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" arcsize="10%"><v:fill type="frame" src="a.jpg"/></v:roundrect><![endif]-->
Hi</td></tr></table>`,
  darkMode: `<html><head><style>@media (prefers-color-scheme: dark) { .card { background: #111111 !important; color: #eeeeee !important } }</style></head>
<body><table class="card" bgcolor="#ffffff" style="color:#222222"><tr><td style="background-color:#fafafa">Card<img src="logo.png" alt="Logo"></td></tr></table></body></html>`,
  functionsAndUnits: `<p style="width: calc(100% - 20px); font-size: 1.2rem; margin: clamp(4px, 2vw, 16px); color: var(--brand, #333)">x</p>`,
};

/** Fixtures whose findings have no rewrite to offer (a VML fallback already present; functions with no plainer equivalent). */
const FIXTURES_WITHOUT_FIXES: ReadonlySet<string> = new Set(['vmlFallback', 'functionsAndUnits']);

const byClient = (findings: CssFinding[], client: string): CssFinding[] => findings.filter((f) => f.client === client);

describe('analyzeEmail', () => {
  it('returns the preview result shape with every report field present', () => {
    const result = analyzeEmail(FIXTURES.layout);
    expect(Object.keys(result).sort()).toEqual(
      [
        'overallScore',
        'transforms',
        'compatibilityScores',
        'cssReport',
        'darkMode',
        'spamReport',
        'sizeReport',
        'linkReport',
        'accessibilityReport',
        'imageReport',
        'inboxPreview',
        'templateReport',
        'overflowReport',
        'visualReport',
        'darkContrast',
        'mobileContrast',
        'designReport',
        'vmlReport',
        'plainText',
      ].sort(),
    );
    expect(result.transforms.map((t) => t.clientId)).toEqual([...CLIENT_IDS]);
    expect(Object.keys(result.darkMode)).toEqual([...CLIENT_IDS]);
    expect(Object.keys(result.compatibilityScores)).toEqual([...CLIENT_IDS]);
    // The static reports are filled; the ones that need a rendered page stay null.
    for (const report of [
      'spamReport',
      'sizeReport',
      'linkReport',
      'accessibilityReport',
      'imageReport',
      'inboxPreview',
      'templateReport',
      'designReport',
      'plainText',
      'darkContrast',
    ] as const) {
      expect(result[report]).toEqual(expect.any(Object));
    }
    expect(result.overflowReport).toBeNull();
    expect(result.visualReport).toBeNull();
    expect(result.mobileContrast).toBeNull();
    expect(Object.keys(result.darkContrast!.clients)).toEqual([...CLIENT_IDS].sort());
    expect(Object.keys(result.inboxPreview!.clients)).toEqual([...CLIENT_IDS].sort());
  });

  it('leaves the reports null when asked not to build them, and changes nothing else', () => {
    const full = analyzeEmail(FIXTURES.layout);
    const core = analyzeEmail(FIXTURES.layout, { reports: false });
    expect(core.spamReport).toBeNull();
    expect(core.darkContrast).toBeNull();
    expect(core.plainText).toBeNull();
    expect({
      ...full,
      spamReport: null,
      sizeReport: null,
      linkReport: null,
      accessibilityReport: null,
      imageReport: null,
      inboxPreview: null,
      templateReport: null,
      darkContrast: null,
      designReport: null,
      vmlReport: null,
      plainText: null,
    }).toEqual(core);
  });

  it('passes compile warnings to the template report, and the requested clients to the per-client reports', () => {
    const result = analyzeEmail('<html><body><p>Hi {{ name }}</p></body></html>', {
      format: 'mjml',
      clients: ['outlook-web', 'gmail-ios'],
      compileWarnings: [{ message: 'Attribute colr is illegal', line: 3, column: 5 }],
    });
    expect(result.templateReport!.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'mjml-validation', severity: 'warning', message: 'Attribute colr is illegal', line: 3, column: 5 }),
        expect.objectContaining({ rule: 'unresolved-merge-tag' }),
      ]),
    );
    expect(Object.keys(result.inboxPreview!.clients)).toEqual(['gmail-ios', 'outlook-web']);
    expect(Object.keys(result.darkContrast!.clients)).toEqual(['gmail-ios', 'outlook-web']);
  });

  it('analyzes only the requested clients, in canonical order', () => {
    const result = analyzeEmail(FIXTURES.layout, { clients: ['thunderbird', 'gmail-web'] });
    expect(result.transforms.map((t) => t.clientId)).toEqual(['gmail-web', 'thunderbird']);
    expect(new Set(result.cssReport.map((f) => f.client))).toEqual(new Set(['gmail-web', 'thunderbird']));
  });

  it('rejects unknown client ids listing the valid ones', () => {
    expect(() => analyzeEmail('<p>x</p>', { clients: ['gmail-web', 'nope' as never] })).toThrow(/nope.*Valid ids: gmail-web/);
  });

  it('makes flex layout an error in the Word engine and a source-positioned finding', () => {
    const word = byClient(analyzeEmail(FIXTURES.layout).cssReport, 'outlook-windows-legacy');
    const flex = word.find((f) => f.property === 'display:flex');
    expect(flex).toMatchObject({ severity: 'error', line: 2, rule: 'css-display-flex' });
    expect(flex?.column).toBeGreaterThan(0);
    expect(flex?.fix?.language).toBe('html');
  });

  it('flags elements clients remove as errors', () => {
    const findings = analyzeEmail(FIXTURES.removedElements).cssReport;
    for (const client of CLIENT_IDS) {
      const errors = byClient(findings, client)
        .filter((f) => f.severity === 'error')
        .map((f) => f.property);
      expect(errors).toEqual(expect.arrayContaining(['<script>', '<iframe>']));
    }
    expect(
      byClient(findings, 'gmail-web')
        .filter((f) => f.severity === 'error')
        .map((f) => f.property),
    ).toEqual(expect.arrayContaining(['<svg>', '<link rel="stylesheet">']));
  });

  it('downgrades Outlook findings a VML fallback covers to info', () => {
    const withVml = byClient(analyzeEmail(FIXTURES.vmlFallback).cssReport, 'outlook-windows-legacy');
    const radius = withVml.find((f) => f.property === 'border-radius');
    expect(radius?.severity).toBe('info');
    expect(radius?.message).toMatch(/VML/);
    const withoutVml = byClient(analyzeEmail(FIXTURES.backgrounds).cssReport, 'outlook-windows-legacy');
    expect(withoutVml.find((f) => f.property === 'border-radius')?.severity).toBe('warning');
  });

  it('detects functions and units', () => {
    const labels = new Set(analyzeEmail(FIXTURES.functionsAndUnits).cssReport.map((f) => f.property));
    // Each of these is unsupported or partial somewhere among the 21 clients.
    for (const label of ['calc()', 'clamp()', 'var()', 'rem unit']) expect(labels).toContain(label);
  });

  it('scores each client 100 - 10 per distinct error property - 3 per distinct warning property, clamped to 0-100', () => {
    const result = analyzeEmail(FIXTURES.removedElements);
    for (const client of CLIENT_IDS) {
      const findings = byClient(result.cssReport, client);
      const distinct = (severity: string): number => new Set(findings.filter((f) => f.severity === severity).map((f) => f.property)).size;
      const expected = Math.min(100, Math.max(0, 100 - 10 * distinct('error') - 3 * distinct('warning')));
      expect(result.compatibilityScores[client]).toEqual({ score: expected, errors: distinct('error'), warnings: distinct('warning'), info: distinct('info') });
    }
    const mean = CLIENT_IDS.reduce((sum, c) => sum + result.compatibilityScores[c].score, 0) / CLIENT_IDS.length;
    expect(result.overallScore).toBe(Math.round(mean));
  });

  it('sorts findings by client, severity and position', () => {
    const findings = analyzeEmail(FIXTURES.styleBlock).cssReport;
    expect(new Set(findings.map((f) => f.severity)).size).toBeGreaterThan(1);
    const order = { error: 0, warning: 1, info: 2 };
    const key = (f: CssFinding): number[] => [CLIENT_IDS.indexOf(f.client), order[f.severity], f.line ?? Infinity, f.column ?? Infinity];
    const compare = (a: CssFinding, b: CssFinding): number => {
      const [ka, kb] = [key(a), key(b)];
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
      return 0;
    };
    expect(findings.map(key)).toEqual([...findings].sort(compare).map(key));
  });

  describe.each(Object.entries(FIXTURES))('fixture %s', (_name, html) => {
    it('fires the same findings in every format; only fixes change', () => {
      const strip = (findings: CssFinding[]): unknown[] => findings.map(({ fix: _fix, ...rest }) => rest);
      const results = EMAIL_FORMATS.map((format) => analyzeEmail(html, { format }));
      for (const result of results.slice(1)) {
        expect(strip(result.cssReport)).toEqual(strip(results[0].cssReport));
        expect(result.compatibilityScores).toEqual(results[0].compatibilityScores);
      }
    });

    it('uses the native idiom of each format in its fixes', () => {
      const markers: Record<EmailFormat, RegExp> = {
        html: /<(table|v:|!--\[if|img|a|style|meta|td|h1)/,
        jsx: /@react-email\/components|style=\{\{|<Head>/,
        mjml: /<mj-/,
        maizzle: /class="|config|tailwind|googleFonts|css:/,
        // A message's HTML part is analyzed as HTML, so it gets HTML's fixes.
        eml: /<(table|v:|!--\[if|img|a|style|meta|td|h1)/,
      };
      for (const format of EMAIL_FORMATS) {
        const fixes = analyzeEmail(html, { format }).cssReport.flatMap((f) => (f.fix ? [f.fix] : []));
        // Fixtures whose findings carry no fix (nothing to rewrite) have nothing to check here.
        if (FIXTURES_WITHOUT_FIXES.has(_name)) expect(fixes).toEqual([]);
        else expect(fixes.length).toBeGreaterThan(0);
        for (const fix of fixes) expect(fix.after).toMatch(markers[format]);
      }
    });

    it('is deterministic', () => {
      expect(JSON.stringify(analyzeEmail(html))).toBe(JSON.stringify(analyzeEmail(html)));
    });
  });
});

describe('transforms', () => {
  it('inlines <style> for Gmail and keeps pseudo-class and media rules in <style>', () => {
    const gmail = analyzeEmail(FIXTURES.styleBlock).transforms.find((t) => t.clientId === 'gmail-web');
    // Gmail also prefixes class names (m_), in the markup and in the rules it keeps.
    expect(gmail?.html).toMatch(/<h1 class="m_title" style="color: #111827; font-size: 24px">/);
    expect(gmail?.html).toMatch(/<style>[^<]*\.m_cta:hover\{color:red;\}[^<]*@media \(max-width: 600px\)/);
    expect(gmail?.html).not.toMatch(/\.title \{ color/);
    expect(gmail?.warnings.some((w) => w.property === '<style>' && /inlined/.test(w.message))).toBe(true);
  });

  it('leaves <style> alone where the client supports it', () => {
    const apple = analyzeEmail(FIXTURES.styleBlock).transforms.find((t) => t.clientId === 'apple-mail-macos');
    expect(apple?.html).toContain('.title { color: #111827; font-size: 24px }');
  });

  it('removes scripts, frames and what each client drops, with warnings', () => {
    const result = analyzeEmail(FIXTURES.removedElements);
    for (const transform of result.transforms) {
      expect(transform.html).not.toMatch(/<script|<iframe/);
      expect(transform.warnings.some((w) => w.property === '<script>' && w.severity === 'error')).toBe(true);
    }
    const gmail = result.transforms.find((t) => t.clientId === 'gmail-web');
    expect(gmail?.html).not.toMatch(/<svg|<link/);
    const apple = result.transforms.find((t) => t.clientId === 'apple-mail-ios');
    expect(apple?.html).toMatch(/<svg/);
    // Apple Mail on macOS shows inline SVG only on a body with a background (caniemail html-svg note 1): this one has none.
    expect(result.transforms.find((t) => t.clientId === 'apple-mail-macos')?.html).not.toMatch(/<svg/);
  });

  it('shows the Word engine its conditional comments and hides !mso content', () => {
    const html =
      '<div><!--[if mso]><table><tr><td>word<![endif]--><!--[if !mso]><!--><p>modern</p><!--<![endif]--></div><p style="border-radius:4px; color:red">x</p>';
    const result = analyzeEmail(html);
    const word = result.transforms.find((t) => t.clientId === 'outlook-windows-legacy')?.html ?? '';
    expect(word).toContain('<table><tr><td>word');
    expect(word).not.toContain('modern');
    expect(word).toContain('<p style="color: red">');
    const apple = result.transforms.find((t) => t.clientId === 'apple-mail-macos')?.html ?? '';
    expect(apple).toContain('<p>modern</p>');
    expect(apple).toContain('border-radius:4px');
  });

  it('serializes unchanged markup exactly like parse5', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded here only, for one test
    const { parse, serialize } = require('parse5') as typeof import('parse5');
    const html =
      '<!DOCTYPE html><html><head><title>a &amp; b</title></head><body><p title="&quot;x&quot; &amp;">1 &lt; 2&nbsp;</p><svg><use xlink:href="#a"></use></svg><template><b>t</b></template><br></body></html>';
    // Superhuman changes nothing in the markup (Apple Mail now adds its own default style sheet to <head>).
    const untouched = analyzeEmail(html, { clients: ['superhuman'] }).transforms[0].html;
    expect(untouched).toBe(serialize(parse(html)));
  });
});

describe('dark mode', () => {
  const result = analyzeEmail(FIXTURES.darkMode);
  const dark = (id: string): string => result.darkMode[id].html;

  it('leaves colors alone where the client does not change them', () => {
    expect(dark('gmail-web')).toBe(result.transforms.find((t) => t.clientId === 'gmail-web')?.html);
    expect(result.darkMode['yahoo-mail'].warnings[0].severity).toBe('info');
  });

  it('inverts light backgrounds under full and partial inversion', () => {
    expect(dark('gmail-ios')).not.toMatch(/bgcolor="#ffffff"/);
    expect(dark('gmail-android')).not.toMatch(/bgcolor="#ffffff"/);
    const darkBackground = /bgcolor="(#[0-9a-f]{6})"/.exec(dark('outlook-windows-legacy'))?.[1] ?? '#ffffff';
    expect(parseInt(darkBackground.slice(1, 3), 16)).toBeLessThan(80);
  });

  it("shows Thunderbird's dark reader (its default from 136): light backgrounds removed over its #18181b page, nothing inverted", () => {
    const light = result.transforms.find((t) => t.clientId === 'thunderbird')?.html ?? '';
    expect(light).toMatch(/bgcolor="#ffffff"/);
    expect(dark('thunderbird')).not.toMatch(/bgcolor="#ffffff"/);
    expect(dark('thunderbird')).toContain('background-color: #18181b');
  });

  it('partial inversion keeps dark backgrounds, full inversion flips them', () => {
    const html = '<table bgcolor="#101010"><tr><td style="color:#ffffff">x</td></tr></table>';
    const r = analyzeEmail(html, { clients: ['gmail-android', 'gmail-ios'] });
    expect(r.darkMode['gmail-android'].html).toContain('bgcolor="#101010"');
    expect(r.darkMode['gmail-ios'].html).not.toContain('bgcolor="#101010"');
  });

  it('recolors only real color attributes: one named after an Object.prototype member is text, not a color', () => {
    const html = '<table constructor="#ffffff" tostring="#ffffff" bgcolor="#ffffff"><tr><td>x</td></tr></table>';
    const r = analyzeEmail(html, { clients: ['gmail-ios'] });
    expect(r.darkMode['gmail-ios'].html).toContain('constructor="#ffffff" tostring="#ffffff"');
    expect(r.darkMode['gmail-ios'].html).not.toContain('bgcolor="#ffffff"');
  });

  it('applies the email own dark rules where prefers-color-scheme is honored', () => {
    // Samsung applies them without an opt-in; Apple Mail only with color-scheme (below).
    expect(dark('samsung-mail')).toMatch(/\.card\{background:#111111 !important;/);
    expect(dark('samsung-mail')).not.toContain('prefers-color-scheme');
  });

  it('keeps Apple Mail light without a color-scheme opt-in, and applies the dark rules with it', () => {
    expect(dark('apple-mail-macos')).toBe(result.transforms.find((t) => t.clientId === 'apple-mail-macos')?.html);
    expect(result.darkMode['apple-mail-macos'].warnings.map((w) => w.property)).toContain('color-scheme');
    const optedIn = analyzeEmail(FIXTURES.darkMode.replace('<head>', '<head><meta name="color-scheme" content="light dark">'), {
      clients: ['apple-mail-macos'],
    });
    expect(optedIn.darkMode['apple-mail-macos'].html).toMatch(/\.card\{background:#111111 !important;/);
    expect(optedIn.darkMode['apple-mail-macos'].warnings.map((w) => w.property)).toContain('dark-mode-coverage');
  });

  it('warns about vanishing images, a missing color-scheme meta and uncovered light backgrounds', () => {
    expect(result.darkMode['gmail-ios'].warnings.some((w) => w.property === 'images' && w.severity === 'warning')).toBe(true);
    const samsung = result.darkMode['samsung-mail'].warnings.map((w) => w.property);
    expect(samsung).toContain('color-scheme');
    expect(samsung).toContain('dark-mode-coverage');
  });

  it('marks what Outlook.com recolored so [data-ogsc] rules apply', () => {
    expect(dark('outlook-web')).toMatch(/data-ogsb=""/);
  });
});

describe('limits', () => {
  it('rejects markup over 500 KB with a typed error', () => {
    const big = `<p>${'é'.repeat(ENGINE_LIMITS.maxInputBytes / 2)}</p>`;
    expect(() => analyzeEmail(big)).toThrow(EngineLimitError);
    try {
      analyzeEmail(big);
    } catch (error) {
      expect((error as EngineLimitError).code).toBe('input_too_large');
    }
  });

  it('rejects nesting deeper than the bound, without a stack overflow', () => {
    const deep = '<div>'.repeat(ENGINE_LIMITS.maxNestingDepth + 10);
    expect(() => analyzeEmail(deep)).toThrow(expect.objectContaining({ code: 'nesting_too_deep' }));
    const deepCss = `<style>${'a{'.repeat(5000)}</style>`;
    expect(() => analyzeEmail(deepCss)).toThrow(expect.objectContaining({ code: 'nesting_too_deep' }));
  });

  it('accepts nesting at the bound', () => {
    const depth = ENGINE_LIMITS.maxNestingDepth - 10;
    const html = '<div>'.repeat(depth);
    expect(analyzeEmail(html, { clients: ['gmail-web'] }).transforms[0].html.match(/<div>/g)).toHaveLength(depth);
  });

  it('rejects more CSS rules than the bound', () => {
    const rules = Array.from({ length: ENGINE_LIMITS.maxCssRules + 1 }, (_, i) => `.c${i}{color:red}`).join('');
    expect(() => analyzeEmail(`<style>${rules}</style>`)).toThrow(expect.objectContaining({ code: 'too_many_css_rules' }));
  });
});
