// Spammy variants for `npm run check:spam`: clean emails with spam techniques added, so that SpamAssassin's
// score and the engine's points can be compared on spam as well as on the corpus, which is all legitimate.
// The spam text is never taken from the engine's own lists: it is drawn from SpamAssassin's rule descriptions
// (the English `describe` lines of the body rules in its phrase, drug and advance-fee files and its active
// sandbox rules, read from the installed rule files at run time, never stored here), and SpamAssassin's own
// sample legitimate message is one of the bases. Which phrases a variant gets is a pseudo-random draw seeded
// by the variant's name, so the set is the same on every run and chosen by rule, not by looking at results.
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');

/** Rule files whose body rules describe spam text (phrases, drugs, advance-fee fraud, the active sandbox rules). */
const PHRASE_FILES = new Set(['20_phrases.cf', '20_drugs.cf', '20_advance_fee.cf', '72_active.cf']);
/** Descriptions of how a message is encoded rather than of what it says. */
const TECHNICAL = /base64|mime|header|encod|charset|line length/i;
const SAMPLE_NONSPAM = '/usr/share/doc/spamassassin/examples/sample-nonspam.txt';

/**
 * Spam text from SpamAssassin's rule descriptions: the English description of every scored body rule (set-0
 * score above 0) defined in PHRASE_FILES, without technical ones, "BODY:" prefixes removed, deduplicated.
 */
function descriptionPhrases(rules) {
  const phrases = new Set();
  for (const [name, rule] of rules) {
    if (name.startsWith('__') || name.startsWith('T_') || rule.type !== 'body' || !PHRASE_FILES.has(rule.definedIn)) continue;
    if (!rule.scores || !(rule.scores[0] > 0) || !rule.describe || TECHNICAL.test(rule.describe)) continue;
    phrases.add(rule.describe.replace(/^BODY:\s*/i, '').replace(/[.!?]+$/, ''));
  }
  return [...phrases].sort();
}

/** A deterministic generator (mulberry32) seeded by a name. */
function randomFor(name) {
  let state = createHash('sha256').update(name).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct phrases drawn from the pool by the name's generator. */
function draw(pool, count, name) {
  const random = randomFor(name);
  const copy = [...pool];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, Math.min(count, copy.length));
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** SpamAssassin's sample legitimate message (a newsletter issue), its body as paragraphs; null when not installed. */
function sampleNonspamBase() {
  if (!fs.existsSync(SAMPLE_NONSPAM)) return null;
  const text = fs.readFileSync(SAMPLE_NONSPAM, 'latin1');
  const subject = /^Subject:\s*(.+)$/m.exec(text)?.[1] ?? 'Newsletter';
  const body = text
    .slice(text.search(/\r?\n\r?\n/))
    .replace(/-----BEGIN PGP SIGNATURE-----[\s\S]*$/, '')
    .replace(/-----BEGIN PGP SIGNED MESSAGE-----/, '');
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .slice(0, 12);
  return { title: escapeHtml(subject), body: paragraphs.map((part) => `<p>${escapeHtml(part).replace(/\n/g, ' ')}</p>`).join('\n') };
}

const BASES = {
  newsletter: {
    title: 'Your March update',
    body: `<p>Hi Sam,</p>
<p>Here is what changed in your workspace this month: the new reporting page is live, exports now include
attachments, and the mobile app remembers your last project. Thank you for working with us.</p>
<p>Next week we will publish a short guide to the new reports, with examples from teams like yours.</p>`,
  },
  store: {
    title: 'New arrivals for your garden',
    body: `<p>Hello Alex,</p>
<p>The spring collection has arrived: planters in three new glazes, a folding bench made of oak, and
the watering can you asked about last autumn. Everything ships from our workshop within two days.</p>
<p><a href="https://shop.example.com/spring">See the collection</a></p>`,
  },
  event: {
    title: 'Seats for the Thursday talk',
    body: `<p>Dear members,</p>
<p>On Thursday evening Dr. Lin will talk about the history of the city's bridges. Doors open at seven,
the talk starts at half past, and there will be tea afterwards in the small hall.</p>
<p>Please reply to this message if you would like to bring a guest.</p>`,
  },
};

const FOOTER = `<p style="color:#555555;font-size:12px">Example Ltd, 1600 Market Street, Suite 200, San Francisco, CA 94103.
<a href="https://example.com/unsubscribe">Unsubscribe</a></p>`;

function frame(title, body, footer = FOOTER) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="background:#ffffff;color:#222222;font-family:Arial,sans-serif">
${body}
${footer}
</body></html>`;
}

/** Upper-cases the text between tags, not the markup. */
const shout = (html) => html.replace(/>([^<]+)</g, (_, text) => `>${text.toUpperCase()}<`);
const image = (name, width = 600, height = 800) =>
  `<a href="https://promo.example.com/offer"><img src="https://promo.example.com/${name}.jpg" width="${width}" height="${height}" alt="" style="display:block"></a>`;

/** The techniques: each a function of a base, a phrase draw (phrases(count)) to a full email. */
const TECHNIQUES = {
  'phrases-3': (base, phrases) => frame(base.title, `${base.body}<p>${phrases(3).join('. ')}.</p>`),
  'phrases-6': (base, phrases) => frame(base.title, `${base.body}<p>${phrases(6).join('. ')}.</p>`),
  'phrases-12': (base, phrases) => frame(base.title, `${base.body}<p>${phrases(12).join('! ')}!</p>`),
  'caps-body': (base, phrases) => frame(base.title, shout(`${base.body}<p>${phrases(4).join('. ')}.</p>`)),
  'caps-subject': (base, phrases) => frame(`${phrases(1)[0].toUpperCase()} - ${base.title.toUpperCase()}`, base.body),
  'caps-all-punctuation': (base, phrases) =>
    frame(
      `${base.title.toUpperCase()}!!!`,
      `${shout(base.body)}<p>${phrases(3)
        .map((phrase) => `${phrase.toUpperCase()}!!!`)
        .join(' ')} $$$</p>`,
    ),
  'image-only': (base, phrases) => frame(base.title, `${image('hero')}<p>${phrases(1)[0]}</p>`),
  'image-only-no-text': (base) => frame(base.title, image('hero', 600, 1400), ''),
  'hidden-display-none': (base, phrases) => frame(base.title, `${base.body}<div style="display:none">${phrases(8).join(' ')}</div>`),
  'hidden-white-on-white': (base, phrases) => frame(base.title, `${base.body}<p style="color:#ffffff">${phrases(8).join(' ')}</p>`),
  'hidden-tiny-font': (base, phrases) => frame(base.title, `${base.body}<p style="font-size:1px;color:#fefefe">${phrases(8).join(' ')}</p>`),
  'url-shorteners': (base, phrases) =>
    frame(
      base.title,
      `${base.body}<p>${phrases(3)
        .map((phrase, i) => `<a href="https://${['bit.ly/3xYz9Q', 'tinyurl.com/y7k2m4', 't.co/AbC123'][i]}">${phrase}</a>`)
        .join(' · ')}</p>`,
    ),
  'combined-spam': (base, phrases) =>
    frame(
      `${base.title.toUpperCase()}!!! ${phrases(1)[0].toUpperCase()}`,
      `${shout(`<p>${phrases(10).join('! ')}!</p>`)}${image('prize', 600, 400)}<p><a href="https://bit.ly/claimnow">${phrases(1)[0].toUpperCase()}</a></p><div style="display:none">${phrases(8).join(' ')}</div>`,
      '',
    ),
};

/** How many independent phrase draws each technique gets per base. */
const DRAWS = 2;

/** Variants of the bases: each base clean, and every technique on every base, DRAWS times with different phrases. */
function generatedVariants(pool) {
  const bases = { ...BASES };
  const sample = sampleNonspamBase();
  if (sample) bases['sa-sample-nonspam'] = sample;
  const variants = [];
  for (const [baseName, base] of Object.entries(bases)) {
    variants.push({ name: `variant/${baseName}/clean`, technique: 'clean', html: frame(base.title, base.body) });
    for (const [technique, build] of Object.entries(TECHNIQUES)) {
      for (let round = 1; round <= DRAWS; round++) {
        const name = `variant/${baseName}/${technique}/${round}`;
        variants.push({ name, technique, html: build(base, (count) => draw(pool, count, name)) });
      }
    }
  }
  return variants;
}

/** Spam injected into a real (corpus) email, right after its <body> tag: shouted phrases, hidden phrases, shortened links. */
function injectedVariants(pool, name, html) {
  const open = /<body[^>]*>/i.exec(html);
  if (!open) return [];
  const at = open.index + open[0].length;
  const inject = (technique, markup) => ({ name: `injected/${name}/${technique}`, technique, html: html.slice(0, at) + markup + html.slice(at) });
  const phrases = (technique, count) => draw(pool, count, `injected/${name}/${technique}`);
  return [
    inject('phrases-12', shout(`<p>${phrases('phrases-12', 12).join('! ')}!</p>`)),
    inject('hidden-display-none', `<div style="display:none">${phrases('hidden-display-none', 10).join(' ')}</div>`),
    inject(
      'url-shorteners',
      `<p>${phrases('url-shorteners', 2)
        .map((phrase, i) => `<a href="https://${['bit.ly/3xYz9Q', 'tinyurl.com/y7k2m4'][i]}">${phrase.toUpperCase()}</a>`)
        .join(' ')}</p>`,
    ),
  ];
}

/** Which half an email belongs to: a hash of its name, fixed before any result is seen. */
function half(name) {
  return createHash('sha256').update(`check-spam-split:${name}`).digest()[0] % 2 === 0 ? 'development' : 'held-out';
}

module.exports = { descriptionPhrases, generatedVariants, injectedVariants, half };
