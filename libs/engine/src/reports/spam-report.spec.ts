import fc from 'fast-check';
import { findSpamClaims } from './spam-claims';
import { capsRatio, longestRuns, tokens, unicodeCapsRatio, unicodeTokens } from './spam-report';
import { COUNTERPART_POINTS, MAX_SIGNAL_POINTS, OWN_POINTS, PHRASE_POINTS_CAP, shortTextImagePoints } from './spam-weights';
import { SPAMASSASSIN_SCORES } from './spamassassin-scores';
import { email, reports, type FixtureParts } from './testing/email-fixture';

function spam(body: string, parts = {}) {
  return reports(email(body, parts)).spamReport;
}
const triggered = (body: string, parts = {}): string[] => triggeredRules(body, parts);
/** Rules of the filter triggers and of the compliance findings. */
function triggeredRules(body: string, parts = {}): string[] {
  const report = spam(body, parts);
  return [...report.triggers, ...report.compliance].map((trigger) => trigger.rule);
}

const CLEAN =
  '<p>Hello Sam, here is what changed in your workspace this month. We shipped faster exports and a new calendar view.</p><p>Read the <a href="https://acme.test/changelog">full changelog</a> on our site.</p>';

describe('spamReport', () => {
  it('scores a clean newsletter 100 with level low', () => {
    const report = spam(CLEAN);
    expect(report.triggers).toEqual([]);
    expect(report.compliance).toEqual([]);
    expect(report).toMatchObject({ score: 100, level: 'low', points: 0, requiredScore: 5, spamAssassinVersion: '4.0.1', transactional: false });
  });

  it('flags shouting, stacked punctuation and an all-caps subject', () => {
    expect(triggered('<p>BUY THE BEST SHOES TODAY AND SAVE HUGE ON EVERY ORDER YOU PLACE NOW friend</p>')).toContain('caps-ratio');
    expect(triggered(`${CLEAN}<p>Amazing!!!</p>`)).toContain('excessive-punctuation');
    expect(triggered(CLEAN, { title: 'HUGE SPRING SALE NOW' })).toContain('all-caps-subject');
  });

  it('finds spam phrases in several languages, folding case and accents', () => {
    const rules = spam(`${CLEAN}<p>Act NOW. Vous avez gagné! Oferta exclusiva. Jetzt kaufen.</p>`).triggers.filter((trigger) => trigger.rule === 'spam-phrase');
    expect(rules.map((trigger) => trigger.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('act now'),
        expect.stringContaining('vous avez gagne'),
        expect.stringContaining('oferta exclusiva'),
        expect.stringContaining('jetzt kaufen'),
      ]),
    );
  });

  it('reads a var() background behind white text as the variable, not as white-on-white hidden text (issue 19)', () => {
    const banner = '<div class="banner"><p style="color:#ffffff">Our spring collection has arrived in every store near you.</p></div>';
    expect(triggered(`${CLEAN}${banner}`, { head: '<style>:root { --brand: #123456; } .banner { background-color: var(--brand); }</style>' })).not.toContain(
      'hidden-text',
    );
    // Semi-transparent white over white is still white-on-white.
    expect(triggered(`${CLEAN}<p style="color:rgba(255,255,255,.95)">This sentence is painted almost exactly like the page behind it.</p>`)).toContain(
      'hidden-text',
    );
  });

  it('flags hidden text but not the preheader or media-query copies', () => {
    const stuffing = '<div style="display:none">cheap watches cheap watches cheap watches cheap watches</div>';
    expect(triggered(`${CLEAN}${stuffing}`)).toContain('hidden-text');
    const preheader = '<div style="display:none;max-height:0;overflow:hidden">Your March update: exports, calendar and more</div>';
    expect(triggered(`${preheader}${CLEAN}`)).not.toContain('hidden-text');
    const mobileOnly = '<div class="mobile-only" style="display:none">This copy is shown on phones by a media query only</div>';
    expect(triggered(`${CLEAN}${mobileOnly}`, { head: '<style>@media (max-width:600px){ .mobile-only { display:block !important } }</style>' })).not.toContain(
      'hidden-text',
    );
    expect(triggered(`${CLEAN}<p style="color:#ffffff">white words on a white page for the filter only</p>`)).toContain('hidden-text');
  });

  it('flags shorteners, raw IP links, executables and deceptive links', () => {
    const rules = triggered(
      `${CLEAN}<a href="https://bit.ly/abc">Spring offer</a> <a href="http://192.168.4.1/login">Log in</a> <a href="https://acme.test/setup.exe">Installer</a> <a href="https://evil.test/login">www.paypal.com</a>`,
    );
    expect(rules).toEqual(expect.arrayContaining(['url-shortener', 'raw-ip-link', 'executable-link', 'deceptive-link']));
  });

  it('does not call click-tracking redirects deceptive', () => {
    expect(triggered(`${CLEAN}<a href="https://click.mailer.test/ls/click?upn=x&url=https%3A%2F%2Fshop.test">www.shop.test</a>`)).not.toContain(
      'deceptive-link',
    );
    expect(triggered(`${CLEAN}<a href="https://u123.ct.sendgrid.net/ls/click?upn=abc">www.shop.test</a>`)).not.toContain('deceptive-link');
    expect(triggered(`${CLEAN}<a href="https://www.acme.test/spring">acme.test/spring</a>`)).not.toContain('deceptive-link');
  });

  it('flags image-only and image-heavy mail', () => {
    const images = (n: number) => Array.from({ length: n }, (_, i) => `<img src="https://acme.test/${i}.jpg" alt="Offer ${i}" width="600">`).join('');
    expect(triggered(images(3))).toContain('image-only');
    const unsized = (n: number) => Array.from({ length: n }, (_, i) => `<img src="https://acme.test/${i}.jpg" alt="Offer ${i}">`).join('');
    expect(triggered(`<p>Our spring collection is here, with new colors for every room.</p>${unsized(4)}`)).toContain('high-image-ratio');
  });

  it('requires an unsubscribe link and a postal address in marketing mail, not in transactional mail', () => {
    const bare = spam(CLEAN, { footer: '' });
    // Compliance findings, apart from the filter score: SpamAssassin scores neither.
    expect(bare.compliance.map((finding) => [finding.rule, finding.severity])).toEqual([
      ['missing-unsubscribe', 'error'],
      ['missing-physical-address', 'warning'],
    ]);
    expect(bare.triggers).toEqual([]);
    expect(bare).toMatchObject({ score: 100, level: 'low' });
    const receipt = spam('<h1>Your order confirmation</h1><p>Thanks! Here is your receipt for order number 1042.</p>', { footer: '' });
    expect(receipt.transactional).toBe(true);
    expect(receipt.score).toBe(100);
    expect(receipt.compliance.map((finding) => [finding.rule, finding.severity])).toEqual([
      ['missing-physical-address', 'info'],
      ['missing-unsubscribe', 'info'],
    ]);
  });

  it('recognizes unsubscribe links in other languages and ESP tags, and addresses in several formats', () => {
    expect(triggered(CLEAN, { footer: '<p>Musterstraße 12, 10115 Berlin. <a href="https://acme.test/x">Newsletter abbestellen</a></p>' })).toEqual([]);
    expect(triggered(CLEAN, { footer: '<address>Acme, 12 rue de la Paix, 75002 Paris</address><a href="*|UNSUB|*">Se désabonner</a>' })).toEqual([]);
    expect(triggered(CLEAN, { footer: '<p>Acme Ltd, PO Box 42, London SW1A 1AA. <a href="https://acme.test/prefs">Opt out</a></p>' })).toEqual([]);
  });

  it('flags scripts, forms and zero-width obfuscation', () => {
    const rules = triggered(`${CLEAN}<script>alert(1)</script><form action="https://acme.test/f"><input name="q"></form><p>V\u200Biagra</p>`);
    expect(rules).toEqual(expect.arrayContaining(['script-tag', 'form-tag', 'obfuscated-text']));
  });

  it('weighs rules SpamAssassin has no counterpart for by our own points, and counts each signal once', () => {
    const links = Array.from({ length: 5 }, (_, i) => `<a href="https://bit.ly/x${i}">Offer number ${i}</a>`).join(' ');
    const report = spam(`${CLEAN}${links}`);
    const shortener = report.triggers.filter((trigger) => trigger.rule === 'url-shortener');
    expect(shortener).toHaveLength(5);
    expect(shortener.map((trigger) => [trigger.spamAssassinRule, trigger.spamAssassinScore, trigger.points])).toEqual([
      [null, 0, OWN_POINTS['url-shortener']],
      ...Array(4).fill([null, 0, 0]),
    ]);
    expect(report).toMatchObject({ points: OWN_POINTS['url-shortener'], spamAssassinPoints: 0, level: 'low', triggersWithoutCounterpart: 5 });
    expect(report.score).toBe(Math.round(100 - 12 * OWN_POINTS['url-shortener']));
    const embeds = spam(`${CLEAN}<embed src="https://acme.test/a.swf"><object data="https://acme.test/b.swf"></object>`).triggers;
    expect(embeds.map((trigger) => [trigger.rule, trigger.spamAssassinRule, trigger.spamAssassinScore, trigger.points])).toEqual([
      ['embedded-content', 'HTML_EMBEDS', SPAMASSASSIN_SCORES.HTML_EMBEDS, COUNTERPART_POINTS.HTML_EMBEDS],
      ['embedded-content', 'HTML_EMBEDS', 0, 0],
    ]);
  });

  it("weighs each counterpart by our points, with SpamAssassin's published score beside them, and maps the points to a level at its required score", () => {
    const medium = spam(`${CLEAN}<p>Dear friend, this is for you.</p>`);
    expect(medium.triggers.map((trigger) => [trigger.rule, trigger.spamAssassinRule, trigger.spamAssassinScore, trigger.points])).toEqual([
      ['spam-phrase', 'DEAR_FRIEND', SPAMASSASSIN_SCORES.DEAR_FRIEND, COUNTERPART_POINTS.DEAR_FRIEND],
    ]);
    expect(medium).toMatchObject({
      points: COUNTERPART_POINTS.DEAR_FRIEND,
      spamAssassinPoints: SPAMASSASSIN_SCORES.DEAR_FRIEND,
      score: Math.round(100 - 12 * COUNTERPART_POINTS.DEAR_FRIEND),
      level: 'low',
    });
    const high = spam(`${CLEAN}<p>Dear friend, 100% guaranteed. Guaranteed! Act Now.</p>`);
    // The three phrases ("dear friend", "100% guaranteed", "act now") add at most PHRASE_POINTS_CAP; the claims add theirs.
    const phrases = Math.min(PHRASE_POINTS_CAP, COUNTERPART_POINTS.DEAR_FRIEND + COUNTERPART_POINTS.GUARANTEED_100_PERCENT + OWN_POINTS['spam-phrase']);
    expect(high.points).toBeCloseTo(phrases + COUNTERPART_POINTS.BANG_GUAR + COUNTERPART_POINTS.ACT_NOW_CAPS, 3);
    expect(high.level).toBe('high');
    expect(spam(`${CLEAN}<p>The lowest price in town.</p>`).level).toBe('low');
    // Capitals: the share decides between SpamAssassin's two body rules.
    const shouting = spam('<p>BUY THE BEST SHOES TODAY AND SAVE HUGE ON EVERY ORDER YOU PLACE NOW</p>', { footer: '' }).triggers.find(
      (trigger) => trigger.rule === 'caps-ratio',
    );
    expect(shouting).toMatchObject({
      spamAssassinRule: 'UPPERCASE_75_100',
      spamAssassinScore: SPAMASSASSIN_SCORES.UPPERCASE_75_100,
      points: COUNTERPART_POINTS.UPPERCASE_75_100,
    });
    // Hidden text: colored like the background is SpamAssassin's low-contrast rule; display:none has no counterpart.
    const stuffing = 'cheap pills and replica watches online today for you';
    expect(spam(`${CLEAN}<p style="color:#ffffff">${stuffing}</p>`).triggers.find((trigger) => trigger.rule === 'hidden-text')).toMatchObject({
      spamAssassinRule: 'HTML_FONT_LOW_CONTRAST',
      spamAssassinScore: 0.713,
      points: COUNTERPART_POINTS.HTML_FONT_LOW_CONTRAST,
    });
    expect(spam(`${CLEAN}<div style="display:none">${stuffing}</div>`).triggers.find((trigger) => trigger.rule === 'hidden-text')).toMatchObject({
      spamAssassinRule: null,
      spamAssassinScore: 0,
      points: OWN_POINTS['hidden-text'],
    });
  });
});

describe('the weights (spam-weights.ts)', () => {
  it('keeps every signal below half the required score, so that no single rule makes an email more than medium risk', () => {
    const all = [...Object.entries(COUNTERPART_POINTS), ...Object.entries(OWN_POINTS)];
    expect(all.filter(([, points]) => !(points >= 0 && points < MAX_SIGNAL_POINTS))).toEqual([]);
    expect(MAX_SIGNAL_POINTS).toBe(2.5);
    const largestImageOnly = Math.max(
      ...Object.keys(SPAMASSASSIN_SCORES)
        .filter((name) => name.startsWith('HTML_IMAGE_ONLY_'))
        .map((name) => shortTextImagePoints(name as keyof typeof SPAMASSASSIN_SCORES)),
    );
    expect(largestImageOnly).toBeLessThan(MAX_SIGNAL_POINTS);
    expect(PHRASE_POINTS_CAP).toBeLessThan(5);
  });

  it('caps what the phrase list adds in all', () => {
    const phrases = ['act now', 'order now', 'buy now', 'cash bonus', 'no obligation', 'extra income', 'free gift', 'call now', 'apply now'];
    const report = spam(`${CLEAN}<p>${phrases.join('. ')}.</p>`);
    const found = report.triggers.filter((trigger) => trigger.rule === 'spam-phrase');
    expect(found).toHaveLength(phrases.length);
    expect(found.reduce((sum, trigger) => sum + trigger.points, 0)).toBeCloseTo(PHRASE_POINTS_CAP, 3);
  });
});

describe('spam claims SpamAssassin scores (spam-claims.ts)', () => {
  /** The SpamAssassin rules of the claim triggers, in report order. */
  const claims = (body: string, title?: string) =>
    spam(body, title === undefined ? {} : { title })
      .triggers.filter((trigger) => trigger.rule === 'spam-claim' || trigger.rule === 'spam-subject')
      .map((trigger) => [trigger.rule, trigger.spamAssassinRule, trigger.spamAssassinScore]);

  it.each([
    ['ACT_NOW_CAPS', '<p>Act Now to keep your seat.</p>', '<p>We act now and then, and now we act.</p>'],
    ['BANG_GUAR', '<p>Results guaranteed! Or your time back.</p>', '<p>Delivery is guaranteed by the carrier.</p>'],
    ['DEAR_WINNER', '<p>Dear lucky winner, claim below.</p>', '<p>Dear Sam, we can now announce who the winner of the raffle is.</p>'],
    ['UNCLAIMED_MONEY', '<p>You have unclaimed funds waiting.</p>', '<p>The unclaimed parcels go back to the sender.</p>'],
    ['URG_BIZ', '<p>I need your urgent business assistance.</p>', '<p>Urgent: your parcel is on its way, and our business hours changed.</p>'],
    ['FREE_QUOTE_INSTANT', '<p>Get a free instant online quote today.</p>', '<p>Free shipping on every quote you accept.</p>'],
    ['BILLION_DOLLARS', '<p>A MILLION DOLLARS can be yours.</p>', '<p>A million dollars was raised for the library.</p>'],
  ] as const)('scores %s in the text (and only the claim itself)', (rule, claimed, unclaimed) => {
    expect(claims(`${CLEAN}${claimed}`)).toEqual([['spam-claim', rule, SPAMASSASSIN_SCORES[rule]]]);
    expect(claims(`${CLEAN}${unclaimed}`)).toEqual([]);
  });

  it.each([
    ['PLING_QUERY', 'Ready? Your upgrade is here!', 'Ready for your upgrade?'],
    ['SUBJ_DOLLARS', '$500 off your next trip', 'Save $500 on your next trip'],
    ['SUBJ_BUY', 'Buy one, get one', 'Why we stopped selling it'],
    ['ENGLISH_UCE_SUBJECT', 'ADV: cheap ink refills', 'Advanced settings are live'],
    ['SUBJ_AS_SEEN', 'As Seen On TV: the pan', 'Seen in the March issue'],
    ['SUBJ_YOUR_FAMILY', 'Protect your family today', 'Family plan renewal'],
    ['SUBJECT_DIET', 'Lose 10 pounds by summer', 'Do not lose your progress'],
  ] as const)('scores %s in the subject only', (rule, subject, otherSubject) => {
    expect(claims(CLEAN, subject)).toEqual([['spam-subject', rule, SPAMASSASSIN_SCORES[rule]]]);
    expect(claims(CLEAN, otherSubject)).toEqual([]);
    // A subject rule does not read the body.
    expect(claims(`${CLEAN}<p>${subject}</p>`)).toEqual([]);
  });

  it('reads body claims in the subject too, as SpamAssassin prepends the subject to the body', () => {
    expect(claims(CLEAN, 'Act Now: spring sale')).toEqual([['spam-claim', 'ACT_NOW_CAPS', SPAMASSASSIN_SCORES.ACT_NOW_CAPS]]);
  });
});

describe('the spam level without SpamAssassin (issue 39 item 7)', () => {
  const shouted = '<!doctype html><html><head><title>FREE MONEY!!! ACT NOW</title></head><body><p>FREE!!! ACT NOW!!! 100% FREE $$$ WINNER</p></body></html>';
  const receipt =
    '<!doctype html><html lang="en"><head><title>Your receipt from Corner Bakery</title></head><body><img src="https://bakery.test/logo.png" alt="Corner Bakery" width="120" height="40"><p>Thanks for your order. Total paid: $12.50 on card ending 4242. Order number 1042.</p></body></html>';

  it('calls the obvious spam high risk, and says the level is the engine estimate', () => {
    const report = reports(shouted).spamReport;
    expect(report).toMatchObject({ level: 'high', levelSource: 'engine' });
    expect(report.points).toBeGreaterThanOrEqual(report.requiredScore);
    expect(report.score).toBeLessThanOrEqual(40);
    expect(report.triggers.filter((trigger) => trigger.points > 0).map((trigger) => trigger.rule)).toEqual(
      expect.arrayContaining(['all-caps-subject', 'excessive-punctuation', 'money-symbols', 'spam-phrase', 'spam-claim']),
    );
    // SpamAssassin 4.0.1's local rules give this message 0.6 (SUBJ_ALL_CAPS, ACT_NOW_CAPS): the report says so beside ours.
    expect(report.spamAssassinPoints).toBeCloseTo(SPAMASSASSIN_SCORES.SUBJ_ALL_CAPS + SPAMASSASSIN_SCORES.ACT_NOW_CAPS, 3);
    expect(report.levelNote).toMatch(/^Engine estimate, SpamAssassin not consulted: high risk from [\d.]+ points/);
    expect(report.triggersWithoutCounterpart).toBe(report.triggers.filter((trigger) => trigger.spamAssassinRule === null).length);
  });

  it('keeps a short receipt with a logo at low risk, below the obvious spam', () => {
    const report = reports(receipt).spamReport;
    expect(report).toMatchObject({ level: 'low', levelSource: 'engine' });
    expect(report.triggers.map((trigger) => [trigger.rule, trigger.spamAssassinRule, trigger.spamAssassinScore, trigger.points])).toEqual([
      ['short-text-image', 'HTML_IMAGE_ONLY_04', SPAMASSASSIN_SCORES.HTML_IMAGE_ONLY_04, shortTextImagePoints('HTML_IMAGE_ONLY_04')],
    ]);
    expect(report.points).toBeLessThan(reports(shouted).spamReport.points);
    expect(report.score).toBeGreaterThan(reports(shouted).spamReport.score);
    expect(report.levelNote).toMatch(/^Engine estimate, SpamAssassin not consulted: low risk/);
  });
});

describe('each modeled signal fires on its fixture and not on a near miss', () => {
  const rulesOf = (body: string, parts = {}) => spam(body, parts).triggers.map((trigger) => trigger.rule);
  const LOGO = '<img src="https://acme.test/logo.png" width="120" height="40" alt="Acme">';

  const body = (html: string): [string, FixtureParts] => [html, {}];
  it.each([
    [
      'excessive-punctuation',
      body(`${CLEAN}<p>Last call!!! Seats are going?!?</p>`),
      body(`${CLEAN}<p>Hi! Thanks for joining. Questions? Reply any time!</p>`),
    ],
    ['money-symbols', body(`${CLEAN}<p>Make $$$ from home.</p>`), body(`${CLEAN}<p>Plans cost $5, $10 or $20 a month; € and £ accepted.</p>`)],
    ['money-symbols', body(`${CLEAN}<p>Gagnez €€€ maintenant.</p>`), body(`${CLEAN}<p>Prices: $€£ shown per region.</p>`)],
    ['empty-text', ['<table><tr><td></td></tr></table>', { footer: '' }], ['<p>Hi</p>', { footer: '' }]],
    [
      'low-contrast-text',
      body(`${CLEAN}<p>Read more <span style="color:#ffffff">|</span> Share</p>`),
      body(`${CLEAN}<p>Read more <span style="color:#999999">|</span> Share</p>`),
    ],
    ['short-text-image', body(`${LOGO}<p>Your code is 123456.</p>`), body('<p>Your code is 123456.</p>')],
    ['image-only', body('<img src="https://acme.test/sale.jpg" width="600" height="900" alt=""><p>Shop now.</p>'), body(`${LOGO}<p>Shop now.</p>`)],
    ['all-caps-subject', [CLEAN, { title: 'FREE MONEY NOW' }], [CLEAN, { title: 'Free money now? Not here' }]],
    [
      'caps-ratio',
      body('<p>BUY THE BEST SHOES TODAY AND SAVE HUGE ON EVERY ORDER YOU PLACE NOW friend</p>'),
      body('<p>Our NASA and ESA partners met the USA team in Paris to plan the next launch window together this spring.</p>'),
    ],
    ['spam-phrase', body(`${CLEAN}<p>Dear friend, this is for you.</p>`), body(`${CLEAN}<p>Dear friends of the library, the reading room reopens.</p>`)],
    [
      'hidden-text',
      body(`${CLEAN}<div style="display:none">cheap watches cheap watches cheap watches cheap watches</div>`),
      body(`<div style="display:none">Your March update: exports, calendar and more</div>${CLEAN}`),
    ],
    ['raw-ip-link', body(`${CLEAN}<a href="http://192.168.4.1/login">Log in</a>`), body(`${CLEAN}<a href="https://192-168-4-1.acme.test/login">Log in</a>`)],
    [
      'embedded-content',
      body(`${CLEAN}<iframe src="https://acme.test/video"></iframe>`),
      body(`${CLEAN}<a href="https://acme.test/video">Watch the video</a>`),
    ],
  ] as Array<[string, [string, FixtureParts], [string, FixtureParts]]>)('%s', (rule, [firesBody, firesParts], [missesBody, missesParts]) => {
    expect(rulesOf(firesBody, firesParts)).toContain(rule);
    expect(rulesOf(missesBody, missesParts)).not.toContain(rule);
  });

  it('counts runs of ! and ?, and of one currency sign, in one pass', () => {
    expect(longestRuns('Wow!!?! and $$$$ and $€$')).toEqual({ marks: 4, money: 4 });
    expect(longestRuns('Hi! Ok? $5 €5')).toEqual({ marks: 1, money: 1 });
    expect(longestRuns('')).toEqual({ marks: 0, money: 0 });
  });
});

describe('the spam rules on hostile input (linear time: no pattern backtracks)', () => {
  // No clock is read: jest's timeout is the guard. Each input is about 200,000 characters.
  it('reads long runs and near-runs of punctuation, money and claims', () => {
    expect(longestRuns('!'.repeat(200_000))).toEqual({ marks: 200_000, money: 0 });
    expect(longestRuns('$€'.repeat(100_000))).toEqual({ marks: 0, money: 1 });
    expect(longestRuns('!a'.repeat(100_000))).toEqual({ marks: 1, money: 0 });
    const nearClaims = 'free instant quote? guarantee guaranteed act now dear winner unclaimed urgent MILLION '.repeat(2_200);
    expect(findSpamClaims(`ADV ${'!?'.repeat(50_000)}`, nearClaims).map((claim) => claim.counterpart)).toEqual(
      expect.arrayContaining(['ENGLISH_UCE_SUBJECT', 'PLING_QUERY', 'DEAR_WINNER', 'FREE_QUOTE_INSTANT']),
    );
    expect(findSpamClaims('', `${'free '.repeat(40_000)}quote`).map((claim) => claim.counterpart)).toEqual([]);
  });

  it('builds the whole report of a long shouted email', () => {
    const body = `<p>${'FREE!!! ACT NOW $$$ WINNER 100% FREE '.repeat(5_000)}</p>`;
    const report = spam(body);
    expect(report.level).toBe('high');
    expect(report.triggers.map((trigger) => trigger.rule)).toEqual(expect.arrayContaining(['excessive-punctuation', 'money-symbols', 'caps-ratio']));
  });
});

describe('spam text measures on ASCII text', () => {
  // ASCII text takes shortcuts (plain character ranges, one pass without a string per word); they must
  // count exactly what the Unicode-aware patterns count.
  const asciiText = fc
    .array(
      fc.constantFrom(
        'SALE',
        'sale',
        'Sale',
        'FREE!!!',
        "DON'T",
        "don't",
        '100%',
        '$5',
        'A1B',
        'ok',
        'IT',
        'x',
        ' ',
        '\n',
        ',',
        '-',
        '.',
        '&',
        "'",
        '42',
        'e-mail',
        'WWW.SHOP.COM',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(''));

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

describe('spamReport on what legitimate mail does (issue 19)', () => {
  const weightOf = (report: ReturnType<typeof spam>, rule: string): number =>
    report.triggers.filter((trigger) => trigger.rule === rule).reduce((sum, trigger) => sum + trigger.weight, 0);

  it('never reads the CSS of a <style> as text: not in the body, not as the preheader, not behind template syntax', () => {
    const css = '<style>.button { background-color: #0b0c0c; color: #ffffff; padding: 12px 24px; } .footer p { font-size: 12px; }</style>';
    expect(triggered(`${css}${CLEAN}`)).toEqual([]);
    const preheader = '<div style="display:none">Your March update: exports, calendar and more</div>';
    expect(triggered(`${css}${preheader}${CLEAN}`)).toEqual([]);
    const jinja = `{% if complete_html %}\n${email(CLEAN, { head: css })}\n{% endif %}`;
    expect(reports(jinja).spamReport.triggers).toEqual([]);
    const handlebars = `{{#if fullPage}}{{> header}}\n${email(CLEAN, { head: css })}{{/if}}`;
    expect(reports(handlebars).spamReport.triggers).toEqual([]);
  });

  it('finds ordinary postal addresses in several countries', () => {
    const unsubscribe = '<a href="https://acme.test/unsubscribe">Unsubscribe</a>';
    const addresses = [
      'Acme Inc. 123 Van Ness, San Francisco 94102',
      'Acme, 1 Infinite Loop, Cupertino, CA 95014',
      'Acme GmbH, Unter den Linden 77, 10117 Berlin',
      'Acme S.r.l., Via Roma 1, 00184 Roma',
      'Acme S.L., Calle Mayor 5, 28013 Madrid',
      'Acme B.V., Herengracht 100, 1015 BS Amsterdam',
      'Acme Ltd, 10 Downing Street, London SW1A 2AA',
      'Acme Canada, 150 Elgin, Ottawa ON K1A 0B1',
      'Acme Pty Ltd, Level 5, Sydney NSW 2000',
      'Acme KK, 〒100-0001 Tokyo',
      'Our mailing address is: *|HTML:LIST_ADDRESS_HTML|*',
      '[Sender_Name] [Sender_Address], [Sender_City]',
    ];
    for (const address of addresses) expect([address, triggered(CLEAN, { footer: `<p>${address}. ${unsubscribe}</p>` })]).toEqual([address, []]);
    // Numbers alone are not an address.
    const noAddress = ['Order 1042 ships in 3 days, 2 boxes.', 'Join 12000 readers, 200 Agents and 1200 happy Clients.', 'Call us on 555 1234 today.'];
    for (const text of noAddress) expect([text, triggered(CLEAN, { footer: `<p>${text} ${unsubscribe}</p>` })]).toEqual([text, ['missing-physical-address']]);
  });

  it('does not call a link deceptive when its text is the destination site own name', () => {
    expect(
      triggered(
        `${CLEAN}<p><a href="https://www.gov.uk">GOV.UK</a> <a href="https://shop.acme.test/spring">acme.test</a> <a href="https://acme.test">www.acme.test</a></p>`,
      ),
    ).toEqual([]);
    expect(triggered(`${CLEAN}<p><a href="https://gov.uk.evil.test/login">GOV.UK</a></p>`)).toContain('deceptive-link');
    expect(triggered(`${CLEAN}<p><a href="https://paypal.com.evil.test/">paypal.com</a></p>`)).toContain('deceptive-link');
  });

  it('takes a zero-width joiner that stops auto-linking for what it is, and still flags hidden words', () => {
    expect(triggered(`${CLEAN}<p>Shipped aug 2&zwnj;8, 201&zwnj;6 to your addr&zwnj;ess: Land&zwnj;mark, St&zwnj;ate, Coun&zwnj;try.</p>`)).not.toContain(
      'obfuscated-text',
    );
    expect(triggered(`${CLEAN}<p>Cheap V\u200Biagra</p>`)).toContain('obfuscated-text');
    expect(triggered(`${CLEAN}<p>F\u200CR\u200CE\u200CE gift</p>`)).toContain('obfuscated-text');
  });

  it('scores a phrase by its SpamAssassin counterpart, and lists the others without a score', () => {
    const phrases = [
      'act now',
      'risk free',
      'no credit check',
      'click below',
      'order now',
      'cash bonus',
      'no obligation',
      'once in a lifetime',
      'dear friend',
      'lose weight',
      'wire transfer',
      'work from home',
      'extra income',
      'free gift',
      'best price',
      'apply now',
      'call now',
      'buy now',
      'free money',
      'earn money',
      'viagra',
      'casino',
      'miracle',
      'lowest price',
      'get paid',
    ];
    const report = spam(`${CLEAN}<p>${phrases.join('. ')}.</p>`);
    const found = report.triggers.filter((trigger) => trigger.rule === 'spam-phrase');
    expect(found).toHaveLength(25);
    expect(
      found
        .filter((trigger) => trigger.spamAssassinRule !== null)
        .map((trigger) => trigger.spamAssassinRule)
        .sort(),
    ).toEqual(['DEAR_FRIEND', 'DIET_1', 'DRUGS_ERECTILE', 'LOW_PRICE', 'ONE_TIME']);
    // Each phrase weighs its counterpart's points or our own, and the list adds at most PHRASE_POINTS_CAP in all.
    expect(found.reduce((sum, trigger) => sum + trigger.points, 0)).toBeCloseTo(PHRASE_POINTS_CAP, 3);
    expect(weightOf(report, 'spam-phrase')).toBeCloseTo(12 * PHRASE_POINTS_CAP, 1);
  });

  it('reads spam phrases in hidden text too, and a hidden "preheader" only up to what an inbox shows', () => {
    expect(
      spam(`${CLEAN}<div style="display:none">act now, dear friend, no credit check</div>`)
        .triggers.filter((trigger) => trigger.rule === 'spam-phrase')
        .map((trigger) => trigger.message),
    ).toEqual([expect.stringContaining('dear friend'), expect.stringContaining('act now'), expect.stringContaining('no credit check')]);
    const stuffing = 'cheap pills and replica watches at the lowest price online today '.repeat(6);
    expect(triggered(`<div style="display:none">${stuffing}</div>${CLEAN}`)).toContain('hidden-text');
    expect(triggered(`<div style="display:none">Your March update: exports, calendar and more</div>${CLEAN}`)).not.toContain('hidden-text');
    // React Email's preview padding: zero-width and directional marks.
    expect(
      triggered(`<div style="display:none">Log in with this magic link<div>${'\u200C\u200B\u200D\u200E\u200F\uFEFF'.repeat(40)}</div></div>${CLEAN}`),
    ).toEqual([]);
  });

  it("flags an email that is one large image and a few words, with SpamAssassin's image-only score for its text length", () => {
    const report = spam(
      '<a href="https://acme.test/sale"><img src="https://acme.test/sale.jpg" width="600" height="900" alt=""></a><p>Shop the spring sale now.</p>',
    );
    expect(report.triggers.find((trigger) => trigger.rule === 'image-only')).toMatchObject({
      spamAssassinRule: 'HTML_IMAGE_ONLY_04',
      spamAssassinScore: SPAMASSASSIN_SCORES.HTML_IMAGE_ONLY_04,
    });
    // A logo above a short note is not an image email: only the weak short-text signal SpamAssassin's rule gives any image.
    const note = spam(
      '<img src="https://acme.test/logo.png" width="120" height="40" alt="Acme"><p>Your export of March is ready: download it from the reports page within seven days. Thank you for using Acme, and see you soon.</p>',
    );
    expect(note.triggers.map((trigger) => [trigger.rule, trigger.severity])).toEqual([['short-text-image', 'info']]);
    expect(note.level).toBe('low');
  });

  it('counts pictures, not icons, against the text', () => {
    // Any image beside this little text is SpamAssassin's image-only signal (short-text-image, weak); the picture count is apart.
    const triggered = (html: string) => triggeredRules(html).filter((rule) => rule !== 'short-text-image');
    const icons = ['facebook', 'twitter', 'instagram'].map((name) => `<img src="https://acme.test/${name}.png" width="24" height="24" alt="${name}">`).join('');
    expect(triggered(`<p>Our spring collection is here, with new colors for every room of the house and garden.</p>${icons}`)).toEqual([]);
    const social = ['facebook', 'instagram']
      .map((name) => `<a href="https://${name}.com/acme"><img src="https://cdn.acme.test/x7_icons_0${name.length}.gif" alt="${name}"></a>`)
      .join('');
    const spacer = '<img src="https://cdn.acme.test/ab_transparent.png" class="force-width-gmail">';
    expect(triggered(`<p>Our spring collection is here, with new colors for every room of the house and garden.</p>${social}${spacer}`)).toEqual([]);
    const pictures = ['<img src="https://cdn.acme.test/sofa.jpg" alt="A green sofa">', '<img src="https://cdn.acme.test/lamp.jpg" alt="A brass lamp">'].join(
      '',
    );
    expect(triggered(`<p>Our spring collection is here, with new colors for every room of the house and garden.</p>${pictures}`)).toContain('high-image-ratio');
  });
});
