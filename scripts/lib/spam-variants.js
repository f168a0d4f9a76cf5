// Spammy variants for `npm run check:spam`: each one a clean email with one spam technique (or several)
// added, so that SpamAssassin's score and the engine's penalty can be compared on mail that is spam as
// well as on the corpus, which is all legitimate. The bases are written here (plus a few corpus emails,
// read at run time and never stored); the techniques are the ones filters are known to weigh.
'use strict';

/** Classic spam phrases, as spam filter rule sets and deliverability guides list them. */
const CLASSIC_PHRASES = [
  'Act now', '100% free', 'Risk-free', 'No credit check', 'Click below', 'Limited time offer', 'Order now',
  'You have been selected', 'Cash bonus', 'No obligation', 'Once in a lifetime', 'Million dollars', 'Dear friend',
  'This is not spam', 'Satisfaction guaranteed', 'Lose weight', 'Wire transfer', 'Earn money', 'Work from home',
  'Double your income',
];

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

const phrases = (count, offset = 0) => Array.from({ length: count }, (_, i) => CLASSIC_PHRASES[(i + offset) % CLASSIC_PHRASES.length]);
const phraseParagraph = (count, offset) => `<p>${phrases(count, offset).map((phrase) => `${phrase}!`).join(' ')}</p>`;
/** Upper-cases the text between tags, not the markup. */
const shout = (html) => html.replace(/>([^<]+)</g, (_, text) => `>${text.toUpperCase()}<`);
const image = (name, width = 600, height = 800) => `<a href="https://promo.example.com/offer"><img src="https://promo.example.com/${name}.jpg" width="${width}" height="${height}" alt="" style="display:block"></a>`;
const STUFFING = 'cheap meds online pharmacy discount pills best price lowest price casino bonus free spins replica watches';

/** The techniques, each a function of a base { title, body } to a full email. */
const TECHNIQUES = {
  'phrases-5': (base) => frame(base.title, base.body + phraseParagraph(5, 0)),
  'phrases-10': (base) => frame(base.title, base.body + phraseParagraph(10, 5)),
  'phrases-15': (base) => frame(base.title, base.body + phraseParagraph(15, 3)),
  'caps-body': (base) => frame(base.title, shout(base.body)),
  'caps-subject': (base) => frame(`${base.title.toUpperCase()} - ACT NOW`, base.body),
  'caps-all-punctuation': (base) => frame(`${base.title.toUpperCase()}!!!`, `${shout(base.body)}<p>DON'T MISS OUT!!! BUY NOW!!! $$$</p>`),
  'image-only': (base) => frame(base.title, `${image('hero')}<p>Click here</p>`),
  'image-only-no-text': (base) => frame(base.title, image('hero', 600, 1400), ''),
  'hidden-display-none': (base) => frame(base.title, `${base.body}<div style="display:none">${STUFFING}</div>`),
  'hidden-white-on-white': (base) => frame(base.title, `${base.body}<p style="color:#ffffff">${STUFFING}</p>`),
  'hidden-tiny-font': (base) => frame(base.title, `${base.body}<p style="font-size:1px;color:#fefefe">${STUFFING}</p>`),
  'url-shorteners': (base) => frame(base.title, `${base.body}<p><a href="https://bit.ly/3xYz9Q">Read more</a> · <a href="https://tinyurl.com/y7k2m4">Your offer</a> · <a href="https://t.co/AbC123">Details</a></p>`),
  'combined-spam': (base) => frame(
    `${base.title.toUpperCase()}!!! YOU HAVE BEEN SELECTED`,
    `${shout(phraseParagraph(12, 0))}${image('prize', 600, 400)}<p><a href="https://bit.ly/claimnow">CLAIM YOUR PRIZE</a></p><div style="display:none">${STUFFING}</div>`,
    '',
  ),
};

/** Variants of the written bases: every technique on every base. */
function generatedVariants() {
  const variants = [];
  for (const [baseName, base] of Object.entries(BASES)) {
    variants.push({ name: `variant/${baseName}/clean`, technique: 'clean', html: frame(base.title, base.body) });
    for (const [technique, build] of Object.entries(TECHNIQUES)) variants.push({ name: `variant/${baseName}/${technique}`, technique, html: build(base) });
  }
  return variants;
}

/** Spam injected into a real (corpus) email, right after its <body> tag: the paragraph, shouting and stuffing. */
function injectedVariants(name, html) {
  const open = /<body[^>]*>/i.exec(html);
  if (!open) return [];
  const at = open.index + open[0].length;
  const inject = (technique, markup) => ({ name: `injected/${name}/${technique}`, technique, html: html.slice(0, at) + markup + html.slice(at) });
  return [
    inject('phrases-15', shout(phraseParagraph(15, 2))),
    inject('hidden-display-none', `<div style="display:none">${STUFFING} ${phrases(8, 4).join(' ')}</div>`),
    inject('url-shorteners', `<p><a href="https://bit.ly/3xYz9Q">LIMITED TIME OFFER</a> <a href="https://tinyurl.com/y7k2m4">CLAIM YOUR PRIZE</a></p>`),
  ];
}

module.exports = { CLASSIC_PHRASES, generatedVariants, injectedVariants };
