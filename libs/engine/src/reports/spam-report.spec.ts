import fc from 'fast-check';
import { SPAM_WEIGHTS, capsRatio, tokens, unicodeCapsRatio, unicodeTokens } from './spam-report';
import { email, reports } from './testing/email-fixture';

function spam(body: string, parts = {}) {
  return reports(email(body, parts)).spamReport;
}
function triggered(body: string, parts = {}): string[] {
  return spam(body, parts).triggers.map((trigger) => trigger.rule);
}

const CLEAN = '<p>Hello Sam, here is what changed in your workspace this month. We shipped faster exports and a new calendar view.</p><p>Read the <a href="https://acme.test/changelog">full changelog</a> on our site.</p>';

describe('spamReport', () => {
  it('scores a clean newsletter 100 with level low', () => {
    const report = spam(CLEAN);
    expect(report.triggers).toEqual([]);
    expect(report).toMatchObject({ score: 100, level: 'low', transactional: false });
  });

  it('flags shouting, stacked punctuation and an all-caps subject', () => {
    expect(triggered('<p>BUY THE BEST SHOES TODAY AND SAVE HUGE ON EVERY ORDER YOU PLACE NOW friend</p>')).toContain('caps-ratio');
    expect(triggered(`${CLEAN}<p>Amazing!!!</p>`)).toContain('excessive-punctuation');
    expect(triggered(CLEAN, { title: 'HUGE SPRING SALE NOW' })).toContain('all-caps-subject');
  });

  it('finds spam phrases in several languages, folding case and accents', () => {
    const rules = spam(`${CLEAN}<p>Act NOW. Vous avez gagné! Oferta exclusiva. Jetzt kaufen.</p>`).triggers.filter((trigger) => trigger.rule === 'spam-phrase');
    expect(rules.map((trigger) => trigger.message)).toEqual(expect.arrayContaining([expect.stringContaining('act now'), expect.stringContaining('vous avez gagne'), expect.stringContaining('oferta exclusiva'), expect.stringContaining('jetzt kaufen')]));
  });

  it('reads a var() background behind white text as the variable, not as white-on-white hidden text (issue 19)', () => {
    const banner = '<div class="banner"><p style="color:#ffffff">Our spring collection has arrived in every store near you.</p></div>';
    expect(triggered(`${CLEAN}${banner}`, { head: '<style>:root { --brand: #123456; } .banner { background-color: var(--brand); }</style>' })).not.toContain('hidden-text');
    // Semi-transparent white over white is still white-on-white.
    expect(triggered(`${CLEAN}<p style="color:rgba(255,255,255,.95)">This sentence is painted almost exactly like the page behind it.</p>`)).toContain('hidden-text');
  });

  it('flags hidden text but not the preheader or media-query copies', () => {
    const stuffing = '<div style="display:none">cheap watches cheap watches cheap watches cheap watches</div>';
    expect(triggered(`${CLEAN}${stuffing}`)).toContain('hidden-text');
    const preheader = '<div style="display:none;max-height:0;overflow:hidden">Your March update: exports, calendar and more</div>';
    expect(triggered(`${preheader}${CLEAN}`)).not.toContain('hidden-text');
    const mobileOnly = '<div class="mobile-only" style="display:none">This copy is shown on phones by a media query only</div>';
    expect(triggered(`${CLEAN}${mobileOnly}`, { head: '<style>@media (max-width:600px){ .mobile-only { display:block !important } }</style>' })).not.toContain('hidden-text');
    expect(triggered(`${CLEAN}<p style="color:#ffffff">white words on a white page for the filter only</p>`)).toContain('hidden-text');
  });

  it('flags shorteners, raw IP links, executables and deceptive links', () => {
    const rules = triggered(`${CLEAN}<a href="https://bit.ly/abc">Spring offer</a> <a href="http://192.168.4.1/login">Log in</a> <a href="https://acme.test/setup.exe">Installer</a> <a href="https://evil.test/login">www.paypal.com</a>`);
    expect(rules).toEqual(expect.arrayContaining(['url-shortener', 'raw-ip-link', 'executable-link', 'deceptive-link']));
  });

  it('does not call click-tracking redirects deceptive', () => {
    expect(triggered(`${CLEAN}<a href="https://click.mailer.test/ls/click?upn=x&url=https%3A%2F%2Fshop.test">www.shop.test</a>`)).not.toContain('deceptive-link');
    expect(triggered(`${CLEAN}<a href="https://u123.ct.sendgrid.net/ls/click?upn=abc">www.shop.test</a>`)).not.toContain('deceptive-link');
    expect(triggered(`${CLEAN}<a href="https://www.acme.test/spring">acme.test/spring</a>`)).not.toContain('deceptive-link');
  });

  it('flags image-only and image-heavy mail', () => {
    const images = (n: number) => Array.from({ length: n }, (_, i) => `<img src="https://acme.test/${i}.jpg" alt="Offer ${i}" width="600">`).join('');
    expect(triggered(images(3))).toContain('image-only');
    expect(triggered(`<p>Our spring collection is here, with new colors for every room.</p>${images(4)}`)).toContain('high-image-ratio');
  });

  it('requires an unsubscribe link and a postal address in marketing mail, not in transactional mail', () => {
    const bare = spam(CLEAN, { footer: '' });
    expect(bare.triggers.map((trigger) => trigger.rule)).toEqual(expect.arrayContaining(['missing-unsubscribe', 'missing-physical-address']));
    expect(bare.score).toBe(100 - SPAM_WEIGHTS['missing-unsubscribe'] - SPAM_WEIGHTS['missing-physical-address']);
    const receipt = spam('<h1>Your order confirmation</h1><p>Thanks! Here is your receipt for order number 1042.</p>', { footer: '' });
    expect(receipt.transactional).toBe(true);
    expect(receipt.score).toBe(100);
    expect(receipt.triggers.map((trigger) => [trigger.rule, trigger.severity, trigger.weight])).toEqual(expect.arrayContaining([['missing-unsubscribe', 'info', 0]]));
  });

  it('recognises unsubscribe links in other languages and ESP tags, and addresses in several formats', () => {
    expect(triggered(CLEAN, { footer: '<p>Musterstraße 12, 10115 Berlin. <a href="https://acme.test/x">Newsletter abbestellen</a></p>' })).toEqual([]);
    expect(triggered(CLEAN, { footer: '<address>Acme, 12 rue de la Paix, 75002 Paris</address><a href="*|UNSUB|*">Se désabonner</a>' })).toEqual([]);
    expect(triggered(CLEAN, { footer: '<p>Acme Ltd, PO Box 42, London SW1A 1AA. <a href="https://acme.test/prefs">Opt out</a></p>' })).toEqual([]);
  });

  it('flags scripts, forms and zero-width obfuscation', () => {
    const rules = triggered(`${CLEAN}<script>alert(1)</script><form action="https://acme.test/f"><input name="q"></form><p>V\u200Biagra</p>`);
    expect(rules).toEqual(expect.arrayContaining(['script-tag', 'form-tag', 'obfuscated-text']));
  });

  it('caps repeated per-link rules and maps the score to a level', () => {
    const links = Array.from({ length: 5 }, (_, i) => `<a href="https://bit.ly/x${i}">Offer number ${i}</a>`).join(' ');
    const report = spam(`${CLEAN}${links}`);
    const shortener = report.triggers.filter((trigger) => trigger.rule === 'url-shortener');
    expect(shortener).toHaveLength(5);
    expect(shortener.reduce((sum, trigger) => sum + trigger.weight, 0)).toBe(2 * SPAM_WEIGHTS['url-shortener']);
    expect(report.score).toBe(80);
    expect(report.level).toBe('low');
    const bad = spam('<p>Dear customer, please act.</p><script></script><div style="display:none">hidden hidden hidden hidden hidden words</div><a href="http://10.0.0.1/">www.bank.com</a>', { footer: '' });
    expect(bad.level).toBe('high');
  });
});

describe('spam text measures on ASCII text', () => {
  // ASCII text takes shortcuts (plain character ranges, one pass without a string per word); they must
  // count exactly what the Unicode-aware patterns count.
  const asciiText = fc.array(fc.constantFrom('SALE', 'sale', 'Sale', 'FREE!!!', "DON'T", "don't", '100%', '$5', 'A1B', 'ok', 'IT', 'x', ' ', '\n', ',', '-', '.', '&', "'", '42', 'e-mail', 'WWW.SHOP.COM'), { maxLength: 60 }).map((parts) => parts.join(''));

  it('counts capital words as the Unicode pattern does', () => {
    fc.assert(
      fc.property(fc.oneof(asciiText, fc.string({ unit: 'binary-ascii', maxLength: 200 })), (text) => {
        expect(capsRatio(text)).toEqual(unicodeCapsRatio(text));
      }),
      { numRuns: 500 },
    );
    expect(capsRatio('BUY NOW and SAVE today')).toEqual({ eligible: 5, ratio: 0.6 });
  });

  it('splits the same tokens as the Unicode pattern', () => {
    fc.assert(
      fc.property(fc.oneof(asciiText, fc.string({ unit: 'binary-ascii', maxLength: 200 })), (text) => {
        expect(tokens(text)).toEqual(unicodeTokens(text));
      }),
      { numRuns: 500 },
    );
    expect(tokens("Risk-free: 100% OFF, don't wait")).toEqual(['risk', 'free', '100%', 'off', 'don', 't', 'wait']);
  });
});
