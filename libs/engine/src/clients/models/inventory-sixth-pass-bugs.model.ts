import type { HtmlElement } from '../../parse/dom';
import type { CssDeclaration } from '../../parse/css-syntax';
import type { ClientId } from '../email-client';
import type { AdditionBehavior, ClientBehavior, RewriteBehavior } from './client-behavior';

/**
 * Behaviours of the inventory's sixth pass (docs/clients.md, "The enumeration sweep"): email-bugs issues about our
 * clients that the sweep found missing from the inventory and that an existing hook expresses. Each reads only
 * what carries its feature (a background whose image is a `cid:` part, an `<img>` start tag), so an email without
 * it costs nothing more. Facts come from the threads cited; fixtures are our own. Appended to each family's model by
 * client-models.ts, after inventory-fifth-pass.model.ts.
 */

// ----- Yahoo and AOL: background images that are attached parts -----

/** A CSS image that points at an attached part (`url(cid:…)`, quoted or not). */
const CID_URL = /url\(\s*(['"]?)\s*cid:[^)]*\1\s*\)/gi;
const HAS_CID_URL = /url\(\s*['"]?\s*cid:/i;
const BACKGROUND_ATTRIBUTE_TAGS = ['body', 'table', 'td', 'th'];

/**
 * Yahoo shows images attached to the message (`cid:`) in `<img>` but not as backgrounds (email-bugs #54): the
 * background image is not painted and the background color shows instead. Modeled as the client's proxy leaves them:
 * the `cid:` image removed from `background-image`, from a `background` shorthand (its other values stay) and from
 * the `background` attribute.
 */
const yahooCidBackgrounds: RewriteBehavior = {
  id: 'yahoo-cid-background-not-shown',
  kind: 'rewrite',
  severity: 'warning',
  label: 'background image from an attached part (cid:)',
  summary:
    'Yahoo does not paint background images that point at a part attached to the message (cid:); <img> elements with cid: images show, backgrounds fall back to their color.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/54',
      title: "email-bugs #54: Yahoo doesn't render attached background images (open)",
      date: '2019-02-08',
      note: "The report's Litmus test holds the background attribute on <body> and a wrapper table; CSS backgrounds are modeled the same way (the thread's workaround, a fallback background-color, is what shows). AOL runs Yahoo's engine (#58) but the thread tests Yahoo only; Office 365 \"seems to have the same issue\" in one line, not modeled (disputed in the inventory).",
    },
  ],
  properties: ['background', 'background-image'],
  valueMatches: HAS_CID_URL,
  rewrite: (d) => {
    if (!HAS_CID_URL.test(d.value)) return undefined;
    if (d.property === 'background-image') return null;
    const rest = d.value.replace(CID_URL, 'none').trim();
    return rest === 'none' ? null : { ...d, value: rest };
  },
  dropsAttributesOn: BACKGROUND_ATTRIBUTE_TAGS,
  dropsAttributes: (element) => (element.attrs.some((a) => !a.prefix && a.name === 'background' && /^\s*cid:/i.test(a.value)) ? ['background'] : []),
  suggestion: 'Host background images on the web (https://), or give every cid: background a background-color that reads well without it.',
  fixture: {
    html: '<table background="cid:page-bg@example.com"><tr><td style="background:#336699 url(\'cid:hero@example.com\') no-repeat;color:#ffffff">Sale</td></tr></table>',
    expect: {
      transformIncludes: ['#336699 none no-repeat', '>Sale<'],
      transformExcludes: ['cid:'],
      finding: { rule: 'yahoo-cid-background-not-shown' },
    },
  },
  // A background hosted on the web is left to the client's image proxy, as written.
  counterFixture: {
    html: '<table background="https://example.com/page-bg.png"><tr><td style="background:#336699 url(\'https://example.com/hero.png\') no-repeat">Sale</td></tr></table>',
    expect: {
      transformIncludes: ['background="https://example.com/page-bg.png"', "url('https://example.com/hero.png')"],
      noFindingFor: 'background image from an attached part (cid:)',
    },
  },
};

// ----- Outlook for iOS: the app's own max-width on images -----

/**
 * The phone width Mailproof paints mobile clients at (worker-render's mobile viewport, 390 px): an image's own
 * max-width at or above it never holds the image below its container on a phone, so losing it changes nothing.
 */
const PHONE_WIDTH_PX = 390;

/** A width as pixels on a phone (percentages of the phone's width; `em`/`rem` at 16 px), or undefined when not a plain length. */
function phonePixels(value: string): number | undefined {
  const match = /^(\d*\.?\d+)(px|pt|em|rem|%)?$/i.exec(value.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  switch ((match[2] ?? '').toLowerCase()) {
    case '%':
      return (n / 100) * PHONE_WIDTH_PX;
    case 'pt':
      return (n * 4) / 3;
    case 'em':
    case 'rem':
      return n * 16;
    default:
      return n;
  }
}

/** The declaration of a property that wins in a style attribute: the last `!important` one, else the last. */
function winning(own: readonly CssDeclaration[], property: string): CssDeclaration | undefined {
  let last: CssDeclaration | undefined;
  let important: CssDeclaration | undefined;
  for (const d of own) {
    if (d.property !== property) continue;
    last = d;
    if (d.important) important = d;
  }
  return important ?? last;
}

/**
 * Whether the app's `max-width:100% !important` makes this image grow past its own max-width on a phone: its own
 * max-width (not `!important`) is narrower than the phone, and its width can exceed it (a percentage, `auto` or no
 * width with no smaller `width` attribute, or a larger length). `width:100%; max-width:600px` paints the same
 * either way on a phone, and so does `width:148px; max-width:148px`.
 */
function imageGrowsPastOwnMaxWidth(element: HtmlElement, own: readonly CssDeclaration[]): boolean {
  const maxWidth = winning(own, 'max-width');
  if (!maxWidth || maxWidth.important) return false;
  const limit = phonePixels(maxWidth.value);
  if (limit === undefined || limit >= PHONE_WIDTH_PX) return false;
  const width = winning(own, 'width');
  const cssWidth = width && width.value.trim().toLowerCase() !== 'auto' ? width.value : undefined;
  const attribute = element.attrs.find((a) => !a.prefix && a.name === 'width')?.value;
  const declared = cssWidth ?? attribute;
  // No width: the image's own size, which the markup does not give, may exceed its max-width.
  if (declared === undefined) return true;
  const pixels = phonePixels(/^\s*\d+\s*$/.test(declared) ? `${declared.trim()}px` : declared);
  return pixels === undefined || pixels > limit;
}

/**
 * Outlook for iOS styles every image with `max-width:100% !important` (email-bugs #93): an image's own smaller
 * `max-width` (`width:100%; max-width:150px`) loses, unless the email writes it `!important` inline.
 */
const outlookIosImageMaxWidth: AdditionBehavior = {
  id: 'outlook-ios-image-max-width-reset',
  kind: 'addition',
  // Info: the image grows but stays inside its container (nothing overflows); the finding names only the images that grow.
  severity: 'info',
  summary:
    "sets max-width:100% !important on every image: an image's own smaller max-width (width:100%; max-width:150px) is lost and the image grows to its container.",
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/93',
      title: 'email-bugs #93: Outlook.com and Outlook on iOS and Android ignore max-width on images (open)',
      date: '2024-01-14',
      note: 'The 2021 report quotes the rule (img { max-width:100%!important }) for Outlook.com and the apps; a 2021 comment sees it on iOS (and an inline height:auto !important added to images without one, not modeled: one report); the maintainer saw it gone from Outlook.com in January 2024. Outlook for Android is left out: #120 (2022-09) sees its images keep their inline max-width. Review (2026-12-07): the finding is given only where the image grows on a phone (its own max-width narrower than 390 px and its width able to exceed it); the rule is written img{…} while the app writes #root img{…}, so a <style> rule of the email with !important beats it in the rewritten markup and not in the app (the thread tests inline styles only).',
    },
  ],
  addsDeclarations: { on: ['img'], declarations: [{ property: 'max-width', value: '100%', important: true }] },
  changesElement: imageGrowsPastOwnMaxWidth,
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion:
    "Write the limit the other way round (width:150px; max-width:100%), put the max-width on a wrapping <td> or <div>, or make the image's own max-width !important inline.",
  fixture: {
    html: '<table><tr><td><img src="https://example.com/logo.png" alt="Logo" width="600" style="display:block;width:100%;max-width:150px"></td></tr></table>',
    expect: { transformIncludes: ['img{max-width:100% !important}'], finding: { rule: 'outlook-ios-image-max-width-reset' } },
  },
  // An image that already fits its container gets the app's rule in its markup, and no note.
  counterFixture: {
    html: '<table><tr><td><img src="https://example.com/logo.png" alt="Logo" width="150" style="display:block;width:150px;max-width:100%"></td></tr></table>',
    expect: { transformIncludes: ['img{max-width:100% !important}'], noFindingFor: 'outlook-ios-image-max-width-reset' },
  },
};

export const SIXTH_PASS_BUG_BEHAVIORS: Partial<Record<ClientId, readonly ClientBehavior[]>> = {
  'yahoo-mail': [yahooCidBackgrounds],
  aol: [yahooCidBackgrounds],
  'outlook-ios': [outlookIosImageMaxWidth],
};
