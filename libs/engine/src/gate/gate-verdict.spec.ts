import fc from 'fast-check';
import type { ClientId } from '../clients/email-client';
import type { PreviewAnalysis } from '../preview-analysis';
import { gateSnapshot, type GateSnapshot } from './gate-snapshot';
import { gateVerdict, type GateOptions, type GateVerdictInput } from './gate-verdict';
import { analyze, email } from './testing/gate-fixtures';

/** Clients where the plain fixture has info notes only (see gate-fixtures.ts). */
const CLIENTS: ClientId[] = ['apple-mail-ios', 'gmail-web', 'outlook-windows-legacy', 'yahoo-mail'];
const FLEX = '<div style="display:flex">columns</div>'; // error in outlook-windows-legacy only (score 90)
const RADIUS = '<div style="border-radius:4px">button</div>'; // warning in outlook-windows-legacy only (97)
const SVG = '<svg width="10" height="10"></svg>'; // error in gmail-web, outlook-windows-legacy, yahoo-mail (90)
const LIMIT = 102 * 1024;

const result = (body: string, clients: readonly ClientId[] = CLIENTS) => analyze(email(body), clients);
const snap = (body: string) => gateSnapshot(result(body));
const baselineOf = (body: string) => ({ snapshot: snap(body), createdAt: '2026-03-01T10:00:00.000Z' });
const verdict = (body: string, options: GateOptions = {}, rest: Partial<GateVerdictInput> = {}) => gateVerdict({ result: result(body), options, ...rest });

describe('gateVerdict: compatibility', () => {
  it('fails a client below the threshold and a client with errors, with the threshold and client-errors failure shapes', () => {
    const v = verdict(FLEX, { threshold: 95, checks: ['compatibility'] });
    expect(v).toEqual({
      passed: false,
      overallScore: 98,
      worstClient: 'outlook-windows-legacy',
      failures: [
        { family: 'compatibility', check: 'threshold', clientId: 'outlook-windows-legacy', score: 90, threshold: 95 },
        { family: 'compatibility', check: 'client-errors', clientId: 'outlook-windows-legacy', errors: 1 },
      ],
      notes: [],
      checks: ['compatibility'],
      comparedTo: null,
    });
  });

  it('passes a score equal to the threshold', () => {
    const v = verdict(FLEX, { threshold: 90, checks: ['compatibility'] });
    expect(v.failures).toEqual([{ family: 'compatibility', check: 'client-errors', clientId: 'outlook-windows-legacy', errors: 1 }]);
    expect(verdict(FLEX, { threshold: 91, checks: ['compatibility'], failOnError: false }).failures).toEqual([
      { family: 'compatibility', check: 'threshold', clientId: 'outlook-windows-legacy', score: 90, threshold: 91 },
    ]);
  });

  it('with failOnError false, errors alone do not block', () => {
    expect(verdict(FLEX, { threshold: 90, checks: ['compatibility'], failOnError: false })).toMatchObject({ passed: true, failures: [] });
  });

  it('warnings count against the score but not as client errors', () => {
    expect(verdict(RADIUS, { threshold: 97, checks: ['compatibility'] })).toMatchObject({ passed: true, failures: [] });
    expect(verdict(RADIUS, { threshold: 98, checks: ['compatibility'] }).failures).toEqual([
      { family: 'compatibility', check: 'threshold', clientId: 'outlook-windows-legacy', score: 97, threshold: 98 },
    ]);
  });

  it('checks only the requested clients; overallScore and worstClient follow them', () => {
    const v = verdict(SVG, { threshold: 95, checks: ['compatibility'], clients: ['apple-mail-ios', 'gmail-web'] });
    expect(v.failures.map((f) => (f as { clientId: string }).clientId)).toEqual(['gmail-web', 'gmail-web']);
    expect(v).toMatchObject({ overallScore: 95, worstClient: 'gmail-web' });
    expect(verdict(SVG, { checks: ['compatibility'], clients: ['apple-mail-ios'] })).toMatchObject({
      passed: true,
      overallScore: 100,
      worstClient: 'apple-mail-ios',
    });
    // Ids the result did not analyze are ignored.
    expect(verdict(SVG, { checks: ['compatibility'], clients: ['apple-mail-ios', 'fastmail'] })).toMatchObject({ passed: true, worstClient: 'apple-mail-ios' });
  });

  it('overallScore is the rounded mean of the checked clients; worstClient ties go to the first id alphabetically', () => {
    const v = verdict(SVG, { checks: ['compatibility'] });
    expect(v.overallScore).toBe(93); // (100 + 90 + 90 + 90) / 4 = 92.5
    expect(v.worstClient).toBe('gmail-web');
    expect(v.failures.map((f) => (f as { clientId: string }).clientId)).toEqual(['gmail-web', 'outlook-windows-legacy', 'yahoo-mail']);
  });

  it('uses the API defaults: threshold 70, every family, failOnError true', () => {
    const v = gateVerdict({ result: result(SVG) });
    expect(v.checks).toEqual(['compatibility', 'content', 'regression', 'message']);
    expect(v.failures.every((f) => f.check === 'client-errors')).toBe(true);
    expect(v.failures).toHaveLength(3);
  });
});

describe('gateVerdict: content', () => {
  const onlyContent: GateOptions = { checks: ['content'] };

  it('fails links that go nowhere (empty, javascript:, placeholders) once each, in document order', () => {
    const links = [
      '<a href="#">top</a>',
      '<a href="javascript:void(0)">script</a>',
      '<a href="">empty</a>',
      '<a href="  ">blank</a>',
      '<a href="#!">bang</a>',
      '<a href="about:blank">blank page</a>',
      '<a href="https://">no host</a>',
      '<a href="http:///">no host either</a>',
      '<a href="https://example.com/offer">example</a>',
      '<a href="#">top again</a>',
    ].join('');
    const v = verdict(links, onlyContent);
    expect(v.failures).toEqual([
      { family: 'content', check: 'links', href: '#', reason: 'placeholder' },
      { family: 'content', check: 'links', href: 'javascript:void(0)', reason: 'javascript' },
      { family: 'content', check: 'links', href: '', reason: 'empty' },
      { family: 'content', check: 'links', href: '  ', reason: 'empty' },
      { family: 'content', check: 'links', href: '#!', reason: 'placeholder' },
      { family: 'content', check: 'links', href: 'about:blank', reason: 'placeholder' },
      { family: 'content', check: 'links', href: 'https://', reason: 'placeholder' },
      { family: 'content', check: 'links', href: 'http:///', reason: 'placeholder' },
      { family: 'content', check: 'links', href: 'https://example.com/offer', reason: 'placeholder' },
    ]);
    expect(v.passed).toBe(false);
  });

  it('does not fail ESP merge tags, which the sending platform fills in', () => {
    const tags = [
      '{{unsubscribe_url}}',
      '*|UNSUB|*',
      '%%view_email_url%%',
      '[unsubscribe]',
      '{$unsubscribe}',
      '<%= url %>',
      'https://acme.test/u/{{user_id}}',
      '${link}',
    ].map((href) => `<a href="${href.replace(/</g, '&lt;').replace(/>/g, '&gt;')}">link</a>`);
    expect(verdict(tags.join(''), onlyContent)).toMatchObject({ passed: true, failures: [] });
  });

  it('does not fail working links: https, mailto, tel, in-page anchors with a target', () => {
    const body =
      '<a href="https://acme.test/a">a</a><a href="mailto:help@acme.test">mail</a><a href="tel:+15550100">call</a><a href="#top">top</a><a id="top" name="top"></a>';
    expect(verdict(body, onlyContent).failures).toEqual([]);
  });

  it('fails an email Gmail would clip (over 102 KB of HTML) with its bytes and the limit', () => {
    const filler = (bytes: number) => `<p>${'a'.repeat(bytes)}</p>`;
    const base = Buffer.byteLength(email(''), 'utf8') + 7;
    const over = verdict(filler(LIMIT - base + 1), onlyContent);
    expect(over.failures).toEqual([{ family: 'content', check: 'size', bytes: LIMIT + 1, limit: LIMIT }]);
    expect(verdict(filler(LIMIT - base), onlyContent).failures).toEqual([]);
  });

  it('fails a real image without alt, once per src; alt="" (decorative), tracking pixels, spacers and hidden images pass', () => {
    const body = [
      '<img src="https://acme.test/banner.png" width="600" height="200">',
      '<img src="https://acme.test/banner.png" width="600" height="200">',
      '<img src="https://acme.test/unsized.png">',
      '<img src="https://acme.test/divider.png" alt="" width="600" height="20">',
      '<img src="https://t.acme.test/open.gif" width="1" height="1">',
      '<img src="https://t.acme.test/open2.gif" style="width:1px;height:1px">',
      '<img src="https://acme.test/spacer.gif" width="600" height="2">',
      '<img src="https://acme.test/hidden.png" width="300" height="100" style="display:none">',
      '<div style="background-image:url(https://acme.test/bg.png);background-color:#fff">text</div>',
    ].join('');
    expect(verdict(body, onlyContent).failures).toEqual([
      { family: 'content', check: 'alt-text', src: 'https://acme.test/banner.png' },
      { family: 'content', check: 'alt-text', src: 'https://acme.test/unsized.png' },
    ]);
  });

  it('fails links that answered 4xx or 5xx, once per URL in URL order; other answers and no answer never fail', () => {
    const checked = [
      { url: 'https://b.test/gone', status: 410 },
      { url: 'https://a.test/missing', status: 404 },
      { url: 'https://c.test/ok', status: 200 },
      { url: 'https://d.test/moved', status: 301 },
      { url: 'https://e.test/error', status: 503 },
      { url: 'https://f.test/timeout', status: null },
      { url: 'https://a.test/missing', status: 404 },
    ];
    expect(verdict('', onlyContent, { links: { checked } }).failures).toEqual([
      { family: 'content', check: 'link-unreachable', url: 'https://a.test/missing', status: 404 },
      { family: 'content', check: 'link-unreachable', url: 'https://b.test/gone', status: 410 },
      { family: 'content', check: 'link-unreachable', url: 'https://e.test/error', status: 503 },
    ]);
    expect(verdict('', { checks: ['compatibility'] }, { links: { checked } }).failures).toEqual([]);
  });

  it('orders content failures by check: links, size, alt-text, link-unreachable', () => {
    const body = `<img src="https://acme.test/x.png" width="100" height="100"><a href="#">x</a><p>${'a'.repeat(LIMIT)}</p>`;
    const v = verdict(body, onlyContent, { links: { checked: [{ url: 'https://acme.test/catalog', status: 404 }] } });
    expect(v.failures.map((f) => f.check)).toEqual(['links', 'size', 'alt-text', 'link-unreachable']);
  });

  it('reads the content reports from the result; when they are null it parses the html given', () => {
    const html = email('<a href="#">x</a><img src="https://acme.test/x.png" width="100" height="100">');
    const bare: PreviewAnalysis = analyze(html, CLIENTS);
    const withoutReports = { ...bare, linkReport: null, sizeReport: null, imageReport: null };
    const expected = gateVerdict({ result: bare, options: onlyContent }).failures;
    expect(expected).toHaveLength(2);
    expect(gateVerdict({ result: withoutReports, html, options: onlyContent }).failures).toEqual(expected);
    // No reports and no html: nothing to check, nothing fails.
    expect(gateVerdict({ result: withoutReports, options: onlyContent }).failures).toEqual([]);
  });
});

describe('gateVerdict: regression', () => {
  const onlyRegression: GateOptions = { checks: ['regression'] };

  it('passes without a baseline; comparedTo stays null', () => {
    for (const baseline of [null, undefined]) {
      expect(verdict(SVG + FLEX, onlyRegression, { baseline })).toMatchObject({ passed: true, failures: [], checks: ['regression'], comparedTo: null });
    }
  });

  it('fails a warning the baseline did not have, and reports the baseline time', () => {
    const v = verdict(RADIUS, onlyRegression, { baseline: baselineOf('') });
    expect(v).toMatchObject({ passed: false, comparedTo: '2026-03-01T10:00:00.000Z', checks: ['regression'] });
    expect(v.failures).toEqual([
      {
        family: 'regression',
        check: 'worse-than-baseline',
        clientId: 'outlook-windows-legacy',
        property: 'border-radius',
        rule: 'css-border-radius',
        severity: 'warning',
      },
    ]);
  });

  it('does not fail a warning the baseline already had', () => {
    expect(verdict(RADIUS, onlyRegression, { baseline: baselineOf(RADIUS) })).toMatchObject({
      passed: true,
      failures: [],
      comparedTo: '2026-03-01T10:00:00.000Z',
    });
  });

  it('does not fail a fixed error; fails only what is new, per client, in client order', () => {
    expect(verdict('', onlyRegression, { baseline: baselineOf(FLEX) }).passed).toBe(true);
    const v = verdict(RADIUS + SVG, onlyRegression, { baseline: baselineOf(FLEX + RADIUS) });
    expect(v.failures).toEqual(
      ['gmail-web', 'outlook-windows-legacy', 'yahoo-mail'].map((clientId) => ({
        family: 'regression',
        check: 'worse-than-baseline',
        clientId,
        property: '<svg>',
        rule: 'html-svg',
        severity: 'error',
      })),
    );
  });

  it('only compares the checked clients, and only clients the baseline analyzed', () => {
    const baseline = baselineOf('');
    expect(
      verdict(SVG, { ...onlyRegression, clients: ['apple-mail-ios', 'yahoo-mail'] }, { baseline }).failures.map((f) => (f as { clientId: string }).clientId),
    ).toEqual(['yahoo-mail']);
    const narrow = { snapshot: gateSnapshot(result('', ['apple-mail-ios'])), createdAt: baseline.createdAt };
    expect(verdict(SVG, onlyRegression, { baseline: narrow }).passed).toBe(true);
  });

  it('an error that became a warning on the same property is an improvement, a warning that became an error is not', () => {
    const make = (severity: 'error' | 'warning'): GateSnapshot => ({
      version: 1,
      overallScore: 90,
      clients: {
        'gmail-web': { score: severity === 'error' ? 90 : 97, errors: severity === 'error' ? 1 : 0, warnings: severity === 'warning' ? 1 : 0, info: 0 },
      },
      findings: [{ clientId: 'gmail-web', property: '<style>', rule: 'html-style', severity }],
    });
    const run = (before: 'error' | 'warning', after: 'error' | 'warning') =>
      gateVerdict({
        result: { compatibilityScores: {}, cssReport: [] },
        snapshot: make(after),
        options: onlyRegression,
        baseline: { snapshot: make(before), createdAt: 'x' },
      });
    expect(run('error', 'warning').passed).toBe(true);
    expect(run('warning', 'error').failures).toEqual([
      { family: 'regression', check: 'worse-than-baseline', clientId: 'gmail-web', property: '<style>', rule: 'html-style', severity: 'error' },
    ]);
  });
});

describe('gateVerdict: families together', () => {
  const bad = `${FLEX}<a href="javascript:alert(1)">x</a><img src="https://acme.test/p.png" width="100" height="100">`;
  const baseline = baselineOf('');

  it('runs each family alone, and all together in family order', () => {
    const compatibility = verdict(bad, { threshold: 95, checks: ['compatibility'] }, { baseline });
    const content = verdict(bad, { threshold: 95, checks: ['content'] }, { baseline });
    const regression = verdict(bad, { threshold: 95, checks: ['regression'] }, { baseline });
    expect(compatibility.failures.map((f) => f.check)).toEqual(['threshold', 'client-errors']);
    expect(content.failures.map((f) => f.check)).toEqual(['links', 'alt-text']);
    expect(regression.failures.map((f) => f.check)).toEqual(['worse-than-baseline']);
    expect(compatibility.comparedTo).toBeNull();
    expect(regression.comparedTo).toBe(baseline.createdAt);
    const all = verdict(bad, { threshold: 95, checks: ['regression', 'content', 'compatibility'] }, { baseline });
    expect(all.checks).toEqual(['compatibility', 'content', 'regression']);
    expect(all.failures).toEqual([...compatibility.failures, ...content.failures, ...regression.failures]);
    expect(verdict(bad, { checks: [] }, { baseline })).toMatchObject({ passed: true, checks: [], failures: [] });
  });

  it('an email with info notes only passes every family', () => {
    const info = result('');
    expect(Object.values(info.compatibilityScores).some((s) => s.info > 0)).toBe(true);
    const v = gateVerdict({ result: info, options: { threshold: 100 }, baseline: baselineOf('') });
    expect(v).toEqual({
      passed: true,
      overallScore: 100,
      worstClient: 'apple-mail-ios',
      failures: [],
      notes: [{ family: 'message', check: 'bulk-sender', reason: 'not a message: nothing to check' }],
      checks: ['compatibility', 'content', 'regression', 'message'],
      comparedTo: baseline.createdAt,
    });
  });

  it('gives the same verdict for the stored JSON result, a precomputed snapshot, and run after run', () => {
    const r = result(bad);
    const input: GateVerdictInput = { result: r, options: { threshold: 95 }, baseline };
    const first = JSON.stringify(gateVerdict(input));
    expect(JSON.stringify(gateVerdict(input))).toBe(first);
    expect(JSON.stringify(gateVerdict({ ...input, result: JSON.parse(JSON.stringify({ id: 'prv_1', ...r })) }))).toBe(first);
    expect(JSON.stringify(gateVerdict({ ...input, snapshot: gateSnapshot(r) }))).toBe(first);
  });
});

/** What the Emailens GitHub Action decides for one file: a client below the threshold fails the file (FAIL), and so does a client with errors when failOnError is on (WARN). */
function emailensAction(scores: Record<string, { score: number; errors: number }>, threshold: number, failOnError: boolean): boolean {
  let passed = true;
  for (const { score, errors } of Object.values(scores)) {
    if (score < threshold)
      passed = false; // FAIL
    else if (errors > 0 && failOnError) passed = false; // WARN, which fails the file too
  }
  return passed;
}

describe("gateVerdict: checks ['compatibility'] reproduces the Emailens CI action", () => {
  it('on real analyses over all 21 clients', () => {
    for (const body of ['', FLEX, RADIUS, SVG, FLEX + RADIUS + SVG, '<p style="font-size:1rem">x</p><form><input type="text"></form>']) {
      const r = analyze(email(body));
      for (const threshold of [0, 50, 70, 87, 90, 94, 97, 100]) {
        for (const failOnError of [true, false]) {
          const v = gateVerdict({ result: r, options: { threshold, failOnError, checks: ['compatibility'] } });
          expect({ body, threshold, failOnError, passed: v.passed }).toEqual({
            body,
            threshold,
            failOnError,
            passed: emailensAction(r.compatibilityScores, threshold, failOnError),
          });
        }
      }
    }
  });

  it('on arbitrary scores (fast-check)', () => {
    const client = fc.record({ score: fc.integer({ min: 0, max: 100 }), errors: fc.integer({ min: 0, max: 3 }), warnings: fc.nat(5), info: fc.nat(5) });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('gmail-web', 'outlook-web', 'yahoo-mail', 'thunderbird', 'aol'), client),
        fc.integer({ min: 0, max: 100 }),
        fc.boolean(),
        (scores, threshold, failOnError) => {
          const v = gateVerdict({ result: { compatibilityScores: scores, cssReport: [] }, options: { threshold, failOnError, checks: ['compatibility'] } });
          expect(v.passed).toBe(emailensAction(scores, threshold, failOnError));
          const below = Object.entries(scores)
            .filter(([, s]) => s.score < threshold)
            .map(([id]) => id)
            .sort();
          expect(v.failures.filter((f) => f.check === 'threshold').map((f) => (f as { clientId: string }).clientId)).toEqual(below);
        },
      ),
    );
  });
});
