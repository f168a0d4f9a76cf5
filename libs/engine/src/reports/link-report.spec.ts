import { email, reports, rules } from './testing/email-fixture';

function linkRules(body: string): string[] {
  return rules(reports(email(body, { footer: '' })).linkReport.issues);
}

describe('linkReport', () => {
  it('accepts well-formed, descriptive, secure links', () => {
    const report = reports(
      email(
        '<a href="https://acme.test/pricing">See our pricing</a> <a href="mailto:help@acme.test">Email support</a> <a href="tel:+44 20 7946 0958">Call us</a> <a id="top"></a><a href="#top">Back to the top</a>',
        { footer: '' },
      ),
    ).linkReport;
    expect(report.issues).toEqual([]);
    expect(report).toMatchObject({ total: 4, broken: 0, insecure: 0, untracked: 0 });
    expect(report.breakdown.https).toBe(1);
    expect(report.links[0]).toMatchObject({ href: 'https://acme.test/pricing', text: 'See our pricing', scheme: 'https', host: 'acme.test', line: 1 });
  });

  it.each([
    ['<a href="">Shop</a>', 'empty-href'],
    ['<a href="javascript:void(0)">Shop</a>', 'javascript-href'],
    ['<a href="#">Shop</a>', 'placeholder-href'],
    ['<a href="https://example.com/page">Shop</a>', 'placeholder-href'],
    ['<a href="#missing">Shop</a>', 'broken-anchor'],
    ['<a href="/pricing">Shop</a>', 'relative-href'],
    ['<a href="http:/acme.test">Shop</a>', 'malformed-href'],
    ['<a href="mailto:">Write</a>', 'empty-mailto'],
    ['<a href="tel:">Call</a>', 'empty-tel'],
    ['<a href="file:///etc/passwd">Shop</a>', 'unsafe-scheme'],
  ])('counts %s as broken (%s)', (body, rule) => {
    const report = reports(email(body, { footer: '' })).linkReport;
    expect(rules(report.issues)).toContain(rule);
    expect(report.broken).toBe(1);
    expect(report.issues.find((issue) => issue.rule === rule)).toMatchObject({ severity: 'error', line: 1 });
  });

  it('flags insecure, protocol-relative and malformed contact links without calling them broken', () => {
    expect(linkRules('<a href="http://acme.test/a">Pricing page</a>')).toEqual(['insecure-link']);
    expect(linkRules('<a href="//acme.test/a">Pricing page</a>')).toEqual(['protocol-relative']);
    expect(linkRules('<a href="mailto:not-an-address">Write to us</a>')).toEqual(['invalid-mailto']);
    const report = reports(email('<a href="http://acme.test/a">Pricing page</a>', { footer: '' })).linkReport;
    expect(report).toMatchObject({ insecure: 1, broken: 0 });
  });

  it('flags generic text and links with no accessible name, but not image links with alt', () => {
    expect(linkRules('<a href="https://acme.test/a">Click here</a>')).toEqual(['generic-link-text']);
    expect(linkRules('<a href="https://acme.test/a">Cliquez ici</a>')).toEqual(['generic-link-text']);
    expect(linkRules('<a href="https://acme.test/a"><img src="https://acme.test/i.png" width="10"></a>')).toEqual(['link-no-accessible-name']);
    expect(linkRules('<a href="https://acme.test/a"><img src="https://acme.test/i.png" alt="Spring catalog" width="10"></a>')).toEqual([]);
    expect(linkRules('<a href="https://acme.test/a" aria-label="Open the spring catalog"></a>')).toEqual([]);
  });

  it('treats ESP merge tags in hrefs as resolved at send time, not broken', () => {
    const report = reports(
      email('<a href="*|UNSUB|*">Unsubscribe</a> <a href="{{ unsubscribe_url }}">Manage preferences</a> <a href="%unsubscribe_url%">Leave</a>', { footer: '' }),
    ).linkReport;
    expect(report.broken).toBe(0);
    expect(report.breakdown.template).toBe(3);
  });

  it('reports untracked links only when the rest of the email tracks', () => {
    const tracked = '<a href="https://acme.test/a?utm_source=news">Spring sale</a> <a href="https://acme.test/b">Autumn sale</a>';
    const report = reports(email(tracked, { footer: '' })).linkReport;
    expect(report).toMatchObject({ tracked: 1, untracked: 1 });
    expect(report.links.map((link) => link.tracked)).toEqual([true, false]);
    const untrackedOnly = reports(email('<a href="https://acme.test/b">Autumn sale</a>', { footer: '' })).linkReport;
    expect(untrackedOnly.untracked).toBe(0);
    const clickHost = reports(
      email('<a href="https://click.acme.test/ls/abc">Spring sale</a> <a href="https://acme.test/unsubscribe">Unsubscribe</a>', { footer: '' }),
    ).linkReport;
    expect(clickHost.untracked).toBe(0);
  });
});
