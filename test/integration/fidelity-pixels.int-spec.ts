import { PNG } from 'pngjs';
import { renderClientViews, type ClientId } from '@mailproof/engine';
import { EmailImageLoader, RenderPool, renderEmail, type ScreenshotMode } from '@mailproof/render';

// One documented client behavior of each kind (docs/clients.md), painted in real headless Chromium
// (Debian's; CHROMIUM_PATH overrides it) from the client's rewritten markup, against a reference client
// where the behavior does not exist. Each check looks at pixels where the quirk must show (the client
// differs from the reference) and where it must not (both paint the same).

type Rgb = [number, number, number];
type Shot = `${ClientId}-${ScreenshotMode}`;

/** A painted screenshot read in CSS px, whatever the device scale it was painted at. */
interface Picture {
  /** The color at (x, y) in CSS px. */
  at(x: number, y: number): Rgb;
  /** How many device pixels inside the CSS px rectangle satisfy `test`. */
  count(rect: { x: number; y: number; width: number; height: number }, test: (rgb: Rgb) => boolean): number;
}

function picture(png: Buffer, scale: number, label: string): Picture {
  const image = PNG.sync.read(png);
  const rgb = (px: number, py: number): Rgb => {
    const offset = (image.width * py + px) * 4;
    return [image.data[offset], image.data[offset + 1], image.data[offset + 2]];
  };
  const device = (value: number) => Math.round(value * scale);
  return {
    at(x, y) {
      const [px, py] = [device(x) + Math.floor(scale / 2), device(y) + Math.floor(scale / 2)];
      if (px >= image.width || py >= image.height)
        throw new Error(`${label}: (${x}, ${y}) CSS px lies outside the ${image.width} x ${image.height} screenshot`);
      return rgb(px, py);
    },
    count({ x, y, width, height }, test) {
      let found = 0;
      for (let py = device(y); py < Math.min(device(y + height), image.height); py++) {
        for (let px = device(x); px < Math.min(device(x + width), image.width); px++) if (test(rgb(px, py))) found++;
      }
      return found;
    },
  };
}

const near =
  (expected: Rgb, tolerance = 24) =>
  (actual: Rgb) =>
    actual.every((value, i) => Math.abs(value - expected[i]) <= tolerance);
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const WHITE: Rgb = [255, 255, 255];
const isRed = near(RED);
const isGreen = near(GREEN);
const isBlue = near(BLUE);
const isWhite = near(WHITE, 4);
const isDark = ([r, g, b]: Rgb) => r + g + b < 150;
/** A pixel of link-blue text (Chromium paints links #0000ee), antialiased over white. */
const isLinkBlue = ([r, g, b]: Rgb) => b - r > 60 && b - g > 60;
/** A pixel of grey text (#999999), antialiased over white. */
const isGreyInk = ([r, g, b]: Rgb) => Math.max(r, g, b) - Math.min(r, g, b) <= 12 && r < 235;

/** Keeps the screenshot tall enough to read every position below, whatever a client drops (Word ignores height on a <div>). */
const SPACER = '<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td height="400" style="height:400px">&nbsp;</td></tr></table>';

describe('client behaviors as painted (real Chromium)', () => {
  let pool: RenderPool;

  beforeAll(async () => {
    pool = await RenderPool.launch({ chromiumPath: process.env.CHROMIUM_PATH, concurrency: 2, pageTimeoutMs: 15_000, maxHeightPx: 2_000 });
  });
  afterAll(async () => {
    await pool?.close();
  });

  /** Paints `html` for `clients` in `modes`; every requested screenshot must be painted. */
  async function paint(html: string, clients: ClientId[], modes: ScreenshotMode[] = ['light']): Promise<(shot: Shot) => Picture> {
    const { painted, failed } = await renderEmail(pool, renderClientViews(html, { clients }), modes, new EmailImageLoader(null));
    expect(failed).toEqual([]);
    return (shot) => {
      const entry = painted.get(shot as never);
      if (!entry) throw new Error(`no screenshot ${shot}`);
      return picture(entry.page.png, entry.unit.deviceScaleFactor, shot);
    };
  }

  it('drop-block: Gmail removes a whole <style> block with a nested at-rule; Apple Mail keeps it; a clean block stays in both', async () => {
    const email = `<!doctype html><html><head>
<style>.a{background:#ff0000} @media screen{ @font-face{font-family:X;src:local(Arial)} .a{color:#000000} }</style>
<style>.b{background:#0000ff}</style>
</head><body style="margin:0;background:#ffffff">
<div class="a" style="width:200px;height:100px"></div>
<div class="b" style="width:200px;height:100px"></div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'gmail-web']);
    const apple = shot('apple-mail-macos-light');
    const gmail = shot('gmail-web-light');
    // The poisoned block: red in Apple Mail, gone (white) in Gmail.
    expect(isRed(apple.at(100, 50))).toBe(true);
    expect(isRed(gmail.at(100, 50))).toBe(false);
    expect(isWhite(gmail.at(100, 50))).toBe(true);
    // The clean block (its class prefixed m_ in Gmail, rule and attribute alike): blue in both.
    expect(isBlue(apple.at(100, 150))).toBe(true);
    expect(isBlue(gmail.at(100, 150))).toBe(true);
  });

  it('rewrite: Proton Mail turns position:absolute into relative (the box falls back into flow); a relative box paints the same', async () => {
    const email = `<!doctype html><html><head>
<style>
  .frame{position:relative;width:400px;height:300px}
  .rel{position:relative;left:200px;width:100px;height:100px;background:#00ff00}
  .abs{position:absolute;top:0;left:0;width:100px;height:100px;background:#0000ff}
</style>
</head><body style="margin:0;background:#ffffff">
<div class="frame"><div class="rel"></div><div class="abs"></div></div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'protonmail']);
    const apple = shot('apple-mail-macos-light');
    const proton = shot('protonmail-light');
    // Absolute in Apple Mail: the blue box sits at the frame's top left, beside the green one.
    expect(isBlue(apple.at(50, 50))).toBe(true);
    expect(isWhite(apple.at(50, 150))).toBe(true);
    // Relative in Proton Mail: it follows the green box in flow, 100 px lower.
    expect(isBlue(proton.at(50, 50))).toBe(false);
    expect(isWhite(proton.at(50, 50))).toBe(true);
    expect(isBlue(proton.at(50, 150))).toBe(true);
    // The relatively positioned box is where both put it.
    expect(isGreen(apple.at(250, 50))).toBe(true);
    expect(isGreen(proton.at(250, 50))).toBe(true);
  });

  it('prefix: Outlook.com prefixes only the first class of a chain, so .first.second never matches; a single class still does', async () => {
    const email = `<!doctype html><html><head>
<style>.first.second{background:#00ff00} .solo{background:#0000ff}</style>
</head><body style="margin:0;background:#ffffff">
<div class="first second" style="width:200px;height:100px"></div>
<div class="solo" style="width:200px;height:100px"></div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'outlook-web']);
    const apple = shot('apple-mail-macos-light');
    const outlook = shot('outlook-web-light');
    expect(isGreen(apple.at(100, 50))).toBe(true);
    expect(isGreen(outlook.at(100, 50))).toBe(false);
    expect(isWhite(outlook.at(100, 50))).toBe(true);
    expect(isBlue(apple.at(100, 150))).toBe(true);
    expect(isBlue(outlook.at(100, 150))).toBe(true);
  });

  it('prefix with a wrapper: Yahoo and AOL scope every rule under #yiv…, and the wrapper they serve the message in makes the class rules paint (issue 38)', async () => {
    const email = `<!doctype html><html><head>
<style>.box{background:#0000ff} body .box-in-body{background:#00ff00}</style>
</head><body style="margin:0;background:#ffffff">
<div class="box" style="width:200px;height:100px"></div>
<div class="box-in-body" style="width:200px;height:100px"></div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'yahoo-mail', 'aol']);
    for (const client of ['apple-mail-macos', 'yahoo-mail', 'aol'] as const) expect(isBlue(shot(`${client}-light`).at(100, 50))).toBe(true);
    // A body compound sits outside the wrapper (#yiv… body …): a documented limit, painted by Apple Mail only.
    expect(isGreen(shot('apple-mail-macos-light').at(100, 150))).toBe(true);
    expect(isWhite(shot('yahoo-mail-light').at(100, 150))).toBe(true);
  });

  it('at-rule rewrite: Thunderbird removes a top-level @media rule (conditional CSS); Apple Mail applies it; a plain rule paints in both', async () => {
    const email = `<!doctype html><html><head>
<style>@media screen{.top{background:#ff0000}} .plain{background:#0000ff}</style>
</head><body style="margin:0;background:#ffffff">
<div class="top" style="width:200px;height:100px"></div>
<div class="plain" style="width:200px;height:100px"></div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'thunderbird']);
    expect(isRed(shot('apple-mail-macos-light').at(100, 50))).toBe(true);
    expect(isWhite(shot('thunderbird-light').at(100, 50))).toBe(true);
    expect(isBlue(shot('apple-mail-macos-light').at(100, 150))).toBe(true);
    expect(isBlue(shot('thunderbird-light').at(100, 150))).toBe(true);
  });

  it('nested CSS: Outlook.com removes an @media nested in an @media, Apple Mail applies it; Thunderbird keeps an @media nested in a style rule (issue 38)', async () => {
    // .n: blue, red from a media query nested in another one. .t: blue, green from a media query nested in the
    // style rule itself (CSS nesting). Both queries match in Chromium.
    const email = `<!doctype html><html><head>
<style>.n{background:#0000ff} @media screen{ @media (min-width:1px){ .n{background:#ff0000} } } .t{background:#0000ff; @media screen{ background:#00ff00 } }</style>
</head><body style="margin:0;background:#ffffff">
<div class="n" style="width:200px;height:100px"></div>
<div class="t" style="width:200px;height:100px"></div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'outlook-web', 'thunderbird']);
    const apple = shot('apple-mail-macos-light');
    const outlook = shot('outlook-web-light');
    const thunderbird = shot('thunderbird-light');
    // The nested @media inside @media: applied in Apple Mail (red), removed by Outlook.com (the blue base rule shows).
    expect(isRed(apple.at(100, 50))).toBe(true);
    expect(isBlue(outlook.at(100, 50))).toBe(true);
    // Thunderbird removes top-level conditional CSS, so the outer @media goes with the nested one: blue.
    expect(isBlue(thunderbird.at(100, 50))).toBe(true);
    // The @media nested in a style rule: Thunderbird keeps it (green), as Apple Mail does.
    expect(isGreen(thunderbird.at(100, 150))).toBe(true);
    expect(isGreen(apple.at(100, 150))).toBe(true);
  });

  it('element: Word ignores padding on a <div> (its child moves into the corner) and keeps it on a <td>', async () => {
    // A 40 x 40 blue child inside a red box with 40 px padding: first in a cell, then in a div. Word also
    // ignores margin on <body>, so its view sits 8 px lower and to the right (Chromium's default margin):
    // every position below lies inside the same area in both layouts.
    const child =
      '<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="width:40px"><tr><td height="40" style="height:40px;background-color:#0000ff">&nbsp;</td></tr></table>';
    const email = `<!doctype html><html><head></head><body style="margin:0;background-color:#ffffff">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td style="padding:40px;background-color:#ff0000">${child}</td></tr></table>
<div style="padding:40px;background-color:#ff0000">${child}</div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'outlook-windows-legacy']);
    const apple = shot('apple-mail-macos-light');
    const word = shot('outlook-windows-legacy-light');
    // The cell (0-120 px): padding in red around the blue child, in both.
    for (const picture of [apple, word]) {
      expect(isRed(picture.at(20, 20))).toBe(true);
      expect(isBlue(picture.at(60, 60))).toBe(true);
    }
    // The div (from 120 px): Apple Mail paints the padding red around the child; Word puts the child in the corner.
    expect(isRed(apple.at(20, 140))).toBe(true);
    expect(isBlue(apple.at(60, 180))).toBe(true);
    expect(isRed(word.at(20, 140))).toBe(false);
    expect(isBlue(word.at(20, 140))).toBe(true);
    expect(isBlue(word.at(60, 180))).toBe(false);
  });

  it('element on a condition: Word shows a table inside a display:none block (sixth pass); Apple Mail hides it; mso-hide:all hides it from both', async () => {
    const cell = (color: string) =>
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td height="100" style="width:200px;height:100px;background-color:${color}">&nbsp;</td></tr></table>`;
    const email = `<!doctype html><html><head></head><body style="margin:0;background-color:#ffffff">
${cell('#0000ff')}
<div style="display:none">${cell('#00ff00')}</div>
<div style="display:none;mso-hide:all">${cell('#ff0000')}</div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['apple-mail-macos', 'outlook-windows-legacy']);
    const apple = shot('apple-mail-macos-light');
    const word = shot('outlook-windows-legacy-light');
    // The visible cell paints in both (Word's view sits 8 px lower: it ignores the body's margin).
    expect(isBlue(apple.at(100, 50))).toBe(true);
    expect(isBlue(word.at(100, 50))).toBe(true);
    // The hidden block's table: gone in Apple Mail, shown under the blue cell in Word.
    expect(isWhite(apple.at(100, 150))).toBe(true);
    expect(isGreen(word.at(100, 150))).toBe(true);
    // mso-hide:all hides the other one in both.
    for (const picture of [apple, word]) expect(picture.count({ x: 0, y: 0, width: 300, height: 400 }, isRed)).toBe(0);
  });

  it('a declaration added on a condition: Apple Mail breaks the words of a width:min-content block at any letter (sixth pass); Gmail keeps them whole', async () => {
    // The body resets word-break: Apple Mail's own body style (word-break: break-word) would break the letters
    // without the sixth-pass rule too; the declaration written beside the width is what breaks them here.
    const email = `<!doctype html><html><head></head><body style="margin:0;background-color:#ffffff;word-break:normal">
<div style="width:min-content;background-color:#00ff00;color:#00ff00;font:20px/24px Arial,sans-serif">Subscribe today</div>
${SPACER}</body></html>`;
    const shot = await paint(email, ['gmail-web', 'apple-mail-macos']);
    const gmail = shot('gmail-web-light');
    const apple = shot('apple-mail-macos-light');
    // Gmail: as wide as "Subscribe", two lines tall.
    expect(isGreen(gmail.at(60, 20))).toBe(true);
    expect(isGreen(gmail.at(10, 200))).toBe(false);
    // Apple Mail: one letter wide, one letter per line.
    expect(isGreen(apple.at(60, 20))).toBe(false);
    expect(isGreen(apple.at(4, 200))).toBe(true);
  });

  it('addition: Apple Mail iOS turns a phone number into a link painted in the link color; macOS and an opted-out email keep the grey text', async () => {
    const body = `<body style="margin:0;background:#ffffff">
<p style="margin:0;padding:10px;height:40px;font:24px/40px Arial,sans-serif;color:#999999">Call 555-123-4567</p>
<p style="margin:0;padding:10px;height:40px;font:24px/40px Arial,sans-serif;color:#999999">Call us soon</p>
${SPACER}</body>`;
    const shot = await paint(`<!doctype html><html><head></head>${body}</html>`, ['apple-mail-ios', 'apple-mail-macos']);
    const optedOut = await paint(`<!doctype html><html><head><meta name="format-detection" content="telephone=no"></head>${body}</html>`, ['apple-mail-ios']);
    const phoneLine = { x: 0, y: 0, width: 380, height: 60 };
    const plainLine = { x: 0, y: 60, width: 380, height: 60 };
    const ios = shot('apple-mail-ios-light');
    const mac = shot('apple-mail-macos-light');
    const iosOptedOut = optedOut('apple-mail-ios-light');
    // The number: link-blue ink on iOS; grey ink only on macOS and in the opted-out email.
    expect(ios.count(phoneLine, isLinkBlue)).toBeGreaterThan(100);
    expect(mac.count(phoneLine, isLinkBlue)).toBe(0);
    expect(mac.count(phoneLine, isGreyInk)).toBeGreaterThan(100);
    expect(iosOptedOut.count(phoneLine, isLinkBlue)).toBe(0);
    expect(iosOptedOut.count(phoneLine, isGreyInk)).toBeGreaterThan(100);
    // A line without a number: grey in every client.
    for (const picture of [ios, mac]) {
      expect(picture.count(plainLine, isLinkBlue)).toBe(0);
      expect(picture.count(plainLine, isGreyInk)).toBeGreaterThan(100);
    }
  });

  it("dark: Thunderbird's dark reader removes the white background (its #18181b page shows) and keeps the dark cell; Gmail iOS inverts both", async () => {
    const email = `<!doctype html><html><head></head><body style="margin:0;background-color:#ffffff">
<table role="presentation" width="300" cellpadding="0" cellspacing="0" border="0" style="width:300px">
<tr><td height="100" style="height:100px;background-color:#ffffff;color:#000000">&nbsp;</td></tr>
<tr><td height="100" style="height:100px;background-color:#111111;color:#eeeeee">&nbsp;</td></tr>
</table>
${SPACER}</body></html>`;
    const shot = await paint(email, ['thunderbird', 'gmail-ios'], ['light', 'dark']);
    const isAlmostBlack = near([17, 17, 17], 8);
    // In light mode both paint what is written.
    for (const light of [shot('thunderbird-light'), shot('gmail-ios-light')]) {
      expect(isWhite(light.at(150, 50))).toBe(true);
      expect(isAlmostBlack(light.at(150, 150))).toBe(true);
    }
    // In dark mode Thunderbird's reader removes the white (its page shows) and leaves the dark cell as it
    // is (it removes colors, it never inverts them); Gmail iOS turns the white cell dark and the dark cell light.
    const thunderbird = shot('thunderbird-dark');
    const gmail = shot('gmail-ios-dark');
    expect(near([24, 24, 27], 6)(thunderbird.at(150, 50))).toBe(true);
    expect(isAlmostBlack(thunderbird.at(150, 150))).toBe(true);
    expect(isWhite(gmail.at(150, 50))).toBe(false);
    expect(isDark(gmail.at(150, 50))).toBe(true);
    expect(isDark(gmail.at(150, 150))).toBe(false);
  });
});
