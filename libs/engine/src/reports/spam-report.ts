/**
 * Content signals that spam filters weigh, each weighed by the engine's own points (spam-weights.ts) on
 * SpamAssassin's scale, with the published score of the SpamAssassin rule that is the same signal beside it
 * (spamassassin-scores.ts, SpamAssassin 4.0.1, score set 0; 0 where SpamAssassin's local rules have none). The
 * bulk-sender requirements (unsubscribe link, postal address) are compliance findings apart from the filter
 * score. points = Σ the engine's points (each signal counted once, as SpamAssassin counts a rule once; the
 * phrase list capped); score = 100 − 12 × points, clamped to 0-100. The level is the engine's estimate
 * (`levelSource: "engine"`, said in `levelNote`); the preview worker replaces it with SpamAssassin's own when a
 * spamd answered. The optional `spamassassin` field is added by the worker; the engine never sets it.
 */
import { HtmlElement, childrenOf, getAttribute, isText, parentElement } from '../parse/dom';
import { utf8Length } from '../parse/utf8-length';
import { contrastRatio } from './context/color-utils';
import type { EmailImage, EmailLink, ReportContext } from './context/report-context';
import { ownText, textContent } from './context/report-document';
import { compareIssues, type ReportIssue, type ReportSeverity } from './context/report-issue';
import {
  COMMON_TLDS,
  PO_BOX_PHRASES,
  SPAM_PHRASES,
  STREET_WORDS,
  SUSPICIOUS_TLDS,
  TRANSACTIONAL_PHRASES,
  UNSUBSCRIBE_HREF_MARKERS,
  UNSUBSCRIBE_PHRASES,
  US_STATES,
  WATCHED_WORDS,
  ADDRESS_MERGE_TAGS,
  STREET_PREFIX_WORDS,
} from './spam-phrases';
import { mediaApplies } from './context/report-styles';
import { INVISIBLE_CHARACTERS, collapseWhitespace, foldForMatching, isAscii, stripInvisible } from './context/text-utils';
import { SPAM_CLAIMS, findSpamClaims } from './spam-claims';
import { tokens } from './spam-tokens';

export { tokens, unicodeTokens } from './spam-tokens';
import { TRACKING_DOMAINS, URL_SHORTENERS, hostMatches, isIpHost, isTrackedUrl, registrableDomain } from './context/url-utils';
import {
  PHRASE_COUNTERPARTS,
  SPAMASSASSIN_REQUIRED_SCORE,
  SPAMASSASSIN_VERSION,
  imageOnlyRule,
  spamRiskLevel,
  uppercaseRule,
  type SpamAssassinRuleName,
} from './spamassassin-scores';
import { COUNTERPART_POINTS, OWN_POINTS, PHRASE_POINTS_CAP, publishedScore, shortTextImagePoints, type OwnSignal } from './spam-weights';

export interface SpamTrigger extends ReportIssue {
  /** The engine's points for this trigger (spam-weights.ts), on SpamAssassin's scale; 0 for a repeat of a signal already counted. */
  points: number;
  /** Points this trigger takes off the 0-100 score: 12 × points. */
  weight: number;
  /** The SpamAssassin rule that is the same signal, or null when SpamAssassin's local rules have none. */
  spamAssassinRule: string | null;
  /** That rule's published score (score set 0), beside ours; 0 when it has none, or when an earlier trigger already counted the rule. */
  spamAssassinScore: number;
}

export interface SpamReport {
  /** 0-100, higher is cleaner: 100 − 12 × points, clamped. */
  score: number;
  /** Risk: high when points reach SpamAssassin's required score (5), medium from half of it (2.5), low below. */
  level: 'low' | 'medium' | 'high';
  /** Σ points of the triggers: the engine's estimate, on SpamAssassin's scale (its own weights, spam-weights.ts). */
  points: number;
  /** Σ spamAssassinScore of the triggers: what SpamAssassin's published scores give the same signals, beside ours. */
  spamAssassinPoints: number;
  /** SpamAssassin's default required score (5), which `level` high stands for. */
  requiredScore: number;
  /** The SpamAssassin release whose published scores the triggers carry. */
  spamAssassinVersion: string;
  /** Whether the content reads as transactional (receipts, resets), which relaxes the compliance findings. */
  transactional: boolean;
  /** Spam-filter signals, heaviest first. */
  triggers: SpamTrigger[];
  /** Bulk-sender requirements (unsubscribe link, postal address): law and mailbox-provider rules, not filter scores. */
  compliance: ReportIssue[];
  /**
   * Which verdict `level` is: `engine`, the engine's estimate (its own weights; SpamAssassin was not asked), or
   * `spamassassin`, set by the preview worker when spamd answered (then `level` follows SpamAssassin's own
   * score and `engineLevel` keeps this estimate).
   */
  levelSource: 'engine' | 'spamassassin';
  /** Whose level it is, in a sentence for a reader (the worker rewrites it when spamd answered). */
  levelNote: string;
  /** Triggers SpamAssassin's local rules have no counterpart for: weighed by the engine's own points only. */
  triggersWithoutCounterpart: number;
}

/** SpamAssassin's image-only rules, by bytes of text. */
const IMAGE_ONLY_RULES = [
  'HTML_IMAGE_ONLY_04',
  'HTML_IMAGE_ONLY_08',
  'HTML_IMAGE_ONLY_12',
  'HTML_IMAGE_ONLY_16',
  'HTML_IMAGE_ONLY_20',
  'HTML_IMAGE_ONLY_24',
  'HTML_IMAGE_ONLY_28',
  'HTML_IMAGE_ONLY_32',
];

/** Engine rules with a SpamAssassin counterpart, and which; docs/reports.md lists them beside their scores. */
export const SPAM_COUNTERPARTS: Readonly<Record<string, readonly string[]>> = {
  'caps-ratio': ['UPPERCASE_50_75', 'UPPERCASE_75_100'],
  'all-caps-subject': ['SUBJ_ALL_CAPS'],
  'spam-phrase': [...new Set(Object.values(PHRASE_COUNTERPARTS))],
  'hidden-text': ['HTML_FONT_LOW_CONTRAST'],
  'empty-text': ['EMPTY_MESSAGE'],
  'low-contrast-text': ['HTML_FONT_LOW_CONTRAST'],
  'image-only': IMAGE_ONLY_RULES,
  'short-text-image': IMAGE_ONLY_RULES,
  'high-image-ratio': ['HTML_IMAGE_RATIO_02'],
  'raw-ip-link': ['NUMERIC_HTTP_ADDR'],
  'embedded-content': ['HTML_EMBEDS', 'HTML_IFRAME_SRC'],
  'spam-claim': SPAM_CLAIMS.filter((claim) => claim.reads === 'body').map((claim) => claim.counterpart),
  'spam-subject': SPAM_CLAIMS.filter((claim) => claim.reads === 'subject').map((claim) => claim.counterpart),
};

/** 0-100 score points per SpamAssassin point: the required score (5) lands at 40, the top of "high". */
const SCORE_PER_POINT = 12;

/** Declared size (px) up to which an image is an icon (social links, bullets), not a picture. */
const ICON_PX = 64;
/** Declared width or height (px) from which an image fills a phone screen's width: the email's message is in it. */
const LARGE_IMAGE_PX = 300;
/** Words under which an email with a large image reads as an image with a caption (a footer is about 20 to 40 words). */
const IMAGE_CAPTION_WORDS = 60;
const EXECUTABLE_EXTENSIONS = ['.exe', '.scr', '.bat', '.cmd', '.msi', '.jar', '.vbs', '.apk', '.ps1', '.dmg', '.pif', '.hta'];
/** A word of 1-5 digits (and one letter, "12a"), between white space or commas, or ending a sentence ("94102."). */
const NUMBER_WORD = /(?:^|[\s,])(\d{1,5}(?:[a-z]|-\d{4})?)(?=$|[\s,]|[.;:](?:\s|$))/gi;
const ZERO_WIDTH = /[\u200b\u200c\u200d\u2060\ufeff]/;
/** A Latin word with zero-width characters inside it ("V\u200biagra", "Addr\u200cess"). */
const WORD_SPLIT_BY_ZERO_WIDTH = /[A-Za-z]+(?:[\u200b\u200c\u200d\u2060\ufeff]+[A-Za-z]+)+/g;
const ZERO_WIDTH_GLOBAL = /[\u200b\u200c\u200d\u2060\ufeff]/g;
/** A character left after stripping invisible characters and collapsing white space: the text is not empty then. */
const SHOWS = new RegExp(`[^\\s${INVISIBLE_CHARACTERS}]`);
/** Characters of a hidden preheader that count as preheader: more than any inbox list shows (docs/reports.md, inboxPreview). */
const PREHEADER_ALLOWANCE = 200;
const PREHEADER_NAMES = ['preheader', 'preview', 'previewtext', 'preview-text', 'preview_text', 'hidden-preheader', 'snippet'];

interface PhraseIndex {
  byFirst: Map<string, string[][]>;
}

function indexPhrases(phrases: readonly string[]): PhraseIndex {
  const byFirst = new Map<string, string[][]>();
  for (const phrase of phrases) {
    const phraseTokens = tokens(phrase);
    if (phraseTokens.length === 0) continue;
    const list = byFirst.get(phraseTokens[0]);
    if (list) list.push(phraseTokens);
    else byFirst.set(phraseTokens[0], [phraseTokens]);
  }
  return { byFirst };
}

/** Distinct phrases found in the token stream, in order of first appearance. Linear in the tokens. */
function findPhrases(words: readonly string[], index: PhraseIndex): string[] {
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const candidates = index.byFirst.get(words[i]);
    if (!candidates) continue;
    for (const candidate of candidates) {
      let matches = true;
      for (let j = 1; j < candidate.length; j++) {
        if (words[i + j] !== candidate[j]) {
          matches = false;
          break;
        }
      }
      if (matches) found.add(candidate.join(' '));
    }
  }
  return [...found];
}

const SPAM_INDEX = indexPhrases(SPAM_PHRASES);
/** PHRASE_COUNTERPARTS keyed as findPhrases names a phrase (its tokens joined by spaces). */
const PHRASE_RULES = new Map(Object.entries(PHRASE_COUNTERPARTS).map(([phrase, rule]) => [tokens(phrase).join(' '), rule]));
const UNSUBSCRIBE_INDEX = indexPhrases(UNSUBSCRIBE_PHRASES);
const TRANSACTIONAL_INDEX = indexPhrases(TRANSACTIONAL_PHRASES);
const PO_BOX_INDEX = indexPhrases(PO_BOX_PHRASES);

/**
 * Words (as wordsOf splits them) made of three or more letters only: no digits or apostrophes inside.
 * A maximal run of letters, digits and apostrophes is such a word when it is all letters (the runs are
 * what a letters-only pattern with look-arounds would find, without the look-behind at every position).
 */
const WORD_RUN = /[\p{L}\p{N}'’]+/gu;
const LETTERS_ONLY = /^\p{L}{3,}$/u;
/** Letters that have case; a word without any (CJK) says nothing about shouting. */
const CASED = /[\p{Lu}\p{Ll}\p{Lt}]/u;
const LOWER = /[\p{Ll}\p{Lt}]/u;

const NOT_ASCII = 0;
const NOT_LETTERS = 1;
const ALL_CAPS = 2;
const HAS_LOWER = 3;
/**
 * How an ASCII word reads, without three Unicode regular expressions: not letters only, all capitals, or
 * with a lower-case letter (every ASCII letter has case). NOT_ASCII sends the word to the regular expressions.
 */
function asciiWordCase(word: string): number {
  let lower = false;
  let letters = true;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code > 127) return NOT_ASCII;
    if (code >= 97 && code <= 122) lower = true;
    else if (code < 65 || code > 90) letters = false;
  }
  return !letters ? NOT_LETTERS : lower ? HAS_LOWER : ALL_CAPS;
}

/** Share of ALL-CAPS words among words of three or more letters. */
export function capsRatio(text: string): { ratio: number; eligible: number } {
  return isAscii(text) ? asciiCapsRatio(text) : unicodeCapsRatio(text);
}

/** capsRatio() without the ASCII shortcut (exported for the test that keeps the two equal). */
export function unicodeCapsRatio(text: string): { ratio: number; eligible: number } {
  let eligible = 0;
  let caps = 0;
  WORD_RUN.lastIndex = 0;
  for (let match = WORD_RUN.exec(text); match !== null; match = WORD_RUN.exec(text)) {
    const word = match[0];
    // Fewer than three UTF-16 units is fewer than three letters.
    if (word.length < 3) continue;
    const ascii = asciiWordCase(word);
    if (ascii === NOT_ASCII) {
      if (!LETTERS_ONLY.test(word) || !CASED.test(word)) continue;
      eligible++;
      if (!LOWER.test(word)) caps++;
    } else if (ascii !== NOT_LETTERS) {
      eligible++;
      if (ascii === ALL_CAPS) caps++;
    }
  }
  return { ratio: eligible === 0 ? 0 : caps / eligible, eligible };
}

/**
 * unicodeCapsRatio on ASCII text in one pass over the characters: WORD_RUN's runs are then runs of
 * letters, digits and apostrophes, classified as they are read, without a match or a string per word.
 */
function asciiCapsRatio(text: string): { ratio: number; eligible: number } {
  let eligible = 0;
  let caps = 0;
  let length = 0;
  let lower = false;
  let letters = true;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    const isLower = code >= 97 && code <= 122;
    const isUpper = code >= 65 && code <= 90;
    if (isLower || isUpper || (code >= 48 && code <= 57) || code === 39) {
      length++;
      if (isLower) lower = true;
      else if (!isUpper) letters = false;
      continue;
    }
    if (length >= 3 && letters) {
      eligible++;
      if (!lower) caps++;
    }
    length = 0;
    lower = false;
    letters = true;
  }
  return { ratio: eligible === 0 ? 0 : caps / eligible, eligible };
}

/** Web addresses written in link text: "www.shop.com", "https://shop.com/sale", "shop.co.uk". */
function domainsInText(text: string): string[] {
  const domains: string[] = [];
  for (const raw of text.split(/\s+/)) {
    if (raw.length > 300) continue;
    let candidate = raw.toLowerCase().replace(/^[(<"'[]+|[)>"'\].,;:!?]+$/g, '');
    const hadScheme = candidate.startsWith('http://') || candidate.startsWith('https://');
    candidate = candidate.replace(/^https?:\/\//, '');
    const hadWww = candidate.startsWith('www.');
    candidate = candidate.split(/[/?#]/)[0];
    if (candidate.includes('@') || !candidate.includes('.') || candidate.length > 253) continue;
    const labels = candidate.split('.');
    if (labels.some((label) => !/^[a-z0-9-]{1,63}$/.test(label))) continue;
    const tld = labels[labels.length - 1];
    if (!/^[a-z]{2,24}$/.test(tld)) continue;
    if (hadScheme || hadWww || COMMON_TLDS.has(tld)) domains.push(candidate);
  }
  return domains;
}

/**
 * Whether a web address shown in link text names the link's own site: the same registrable domain, or
 * one name under the other ("GOV.UK" for www.gov.uk, where gov.uk is itself a public suffix and the
 * approximate registrable domain of www.gov.uk is the whole host).
 */
function sameSite(shown: string, host: string, hostDomain: string): boolean {
  if (registrableDomain(shown) === hostDomain || shown === host) return true;
  return host.endsWith(`.${shown}`) || shown.endsWith(`.${host}`);
}

function linkMatchesUnsubscribe(link: EmailLink): boolean {
  const href = link.href.toLowerCase();
  if (UNSUBSCRIBE_HREF_MARKERS.some((marker) => href.includes(marker))) return true;
  return findPhrases(tokens(`${link.text} ${link.accessibleName}`), UNSUBSCRIBE_INDEX).length > 0;
}

/** Words as hasPhysicalAddress reads them: delimited by white space and commas. */
const WORD = /[^\s,]+/g;
const SEPARATOR = /[\s,]/;

/** Whether one of the first five words of text[from, to) is a street word; no slicing of the text around every number. */
function streetWordFollows(text: string, from: number, to: number): boolean {
  WORD.lastIndex = from;
  for (let count = 0; count < 5; count++) {
    const match = WORD.exec(text);
    if (!match || match.index >= to) return false;
    const wordEnd = match.index + match[0].length;
    const word = wordEnd > to ? text.slice(match.index, to) : match[0];
    if (STREET_WORDS.has(foldForMatching(word).replace(/[.]/g, ''))) return true;
    if (wordEnd >= to) return false;
  }
  return false;
}

/** The last word of text[from, to), or undefined. */
function lastWordBefore(text: string, to: number, from: number): string | undefined {
  let end = to;
  while (end > from && SEPARATOR.test(text[end - 1])) end--;
  let start = end;
  while (start > from && !SEPARATOR.test(text[start - 1])) start--;
  return start === end ? undefined : text.slice(start, end);
}

/** Capitalised words (a name), as street and city names are written. */
const NAME = String.raw`\p{Lu}[\p{L}.'’-]*`;
/** Before a postcode: "123 Van Ness, San Francisco " (house number, street name, comma, city name). */
const STREET_AND_CITY_BEFORE = new RegExp(String.raw`(?:^|[\s,])\d{1,5}[a-z]?,?\s+(?:${NAME}\s+){0,4}${NAME},\s*(?:${NAME}\s+){0,3}${NAME},?\s*$`, 'u');
/** Before a postcode: a house number ("Unter den Linden 77, " then "10117 Berlin"). */
const HOUSE_NUMBER_BEFORE = /(?:^|[\s,])\d{1,5}[a-z]?,?\s+$/i;
/** After a postcode: a city name ("10117 Berlin"). */
const CITY_AFTER = /^\s+\p{Lu}\p{Ll}/u;
/**
 * Postcodes whose shape alone says "address": UK ("SW1A 1AA"), Dutch with its city ("1015 CJ Amsterdam"),
 * Canadian ("K1A 0B1"), Australian state and postcode ("NSW 2000"), Japanese ("〒100-0001").
 */
const POSTCODE = new RegExp(
  [
    String.raw`\b[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2}\b`,
    String.raw`\b[1-9]\d{3} ?[A-Z]{2}\s+\p{Lu}\p{Ll}+`,
    String.raw`\b[ABCEGHJ-NPRSTVXY]\d[A-Z] ?\d[A-Z]\d\b`,
    String.raw`\b(?:NSW|VIC|QLD|TAS|SA|WA|ACT|NT)\s+\d{4}\b`,
    String.raw`〒\s?\d{3}-?\d{4}`,
  ].join('|'),
  'u',
);

/** Whether one of the four words before `to` is a street word that comes before the name ("Via Roma 1", "Calle Mayor 5"), capitalised. */
function streetWordPrecedes(text: string, to: number): boolean {
  let end = to;
  for (let count = 0; count < 4; count++) {
    const word = lastWordBefore(text, end, Math.max(0, end - 80));
    if (!word) return false;
    if (/^\p{Lu}/u.test(word) && STREET_PREFIX_WORDS.has(foldForMatching(word).replace(/[.]/g, ''))) return true;
    end = text.lastIndexOf(word, end - 1);
    if (end <= 0) return false;
  }
  return false;
}

/**
 * Whether the body shows a postal address: an <address> element, a PO box, an ESP's address merge tag, a
 * street line ("1600 Amphitheatre Parkway", "Hauptstraße 5", "Via Roma 1"), a street and city before a
 * postcode ("123 Van Ness, San Francisco 94102"), a house number before postcode and city ("Unter den
 * Linden 77, 10117 Berlin"), a US state and ZIP, or a postcode of a recognizable shape.
 */
export function hasPhysicalAddress(context: ReportContext, visibleText: string, visibleTokens: readonly string[] = tokens(visibleText)): boolean {
  if (context.doc.byTag('address').length > 0) return true;
  if (findPhrases(visibleTokens, PO_BOX_INDEX).length > 0) return true;
  const lower = visibleText.toLowerCase();
  if (ADDRESS_MERGE_TAGS.some((tag) => lower.includes(tag))) return true;
  // Every pattern below is anchored on a number word (a word is delimited by white space or commas):
  // look only around those, instead of splitting and folding the whole text.
  const STREET_SUFFIXES = ['strasse', 'str', 'weg', 'platz', 'allee', 'gasse', 'straat', 'laan', 'plein', 'gracht', 'kade'];
  for (const match of visibleText.matchAll(NUMBER_WORD)) {
    const number = match[1];
    const start = match.index + match[0].length - number.length;
    const end = start + number.length;
    const houseNumber = /^\d{1,5}[a-z]?$/i.test(number);
    // "1600 Amphitheatre Parkway", "12 rue de la Paix": a street word within the next five words (of the next 400 characters).
    if (houseNumber && streetWordFollows(visibleText, end, Math.min(visibleText.length, end + 400))) return true;
    // The last word of the 200 characters before the number.
    const previous = lastWordBefore(visibleText, start, Math.max(0, start - 200));
    if (!previous) continue;
    // "Hauptstraße 5", "Keizersgracht 123": a street name ending in a street word, then the number.
    const bare = foldForMatching(previous).replace(/[.\u00b7]/g, '');
    if (houseNumber && STREET_SUFFIXES.some((suffix) => bare.endsWith(suffix) && bare.length > suffix.length)) return true;
    // "Via Roma 1", "Calle Mayor 5", "Avenue Louise 54".
    if (houseNumber && streetWordPrecedes(visibleText, start)) return true;
    if (/^\d{4,5}(?:-\d{4})?$/.test(number)) {
      // "CA 94043" (US state + ZIP).
      if (US_STATES.has(previous.replace(/[.,]/g, ''))) return true;
      const before = visibleText.slice(Math.max(0, start - 100), start);
      // "123 Van Ness, San Francisco 94102".
      if (STREET_AND_CITY_BEFORE.test(before)) return true;
      // "Unter den Linden 77, 10117 Berlin".
      if (HOUSE_NUMBER_BEFORE.test(before) && CITY_AFTER.test(visibleText.slice(end, end + 40))) return true;
    }
  }
  return POSTCODE.test(visibleText);
}

/**
 * Words that zero-width characters split to hide them from filters: a word a filter watches ("V\u200biagra",
 * "fr\u200bee"), or one split letter by letter ("F\u200cR\u200cE\u200cE"). One joiner inside an ordinary word is
 * how senders stop phones from turning addresses and dates into links ("Addr&zwnj;ess", "St&zwnj;ate"): not
 * obfuscation. Returns the joined words, in text order.
 */
export function obfuscatedWords(text: string): string[] {
  const words: string[] = [];
  for (const [split] of text.matchAll(WORD_SPLIT_BY_ZERO_WIDTH)) {
    const word = split.replace(ZERO_WIDTH_GLOBAL, '').toLowerCase();
    const splits = split.length - word.length;
    if (splits >= 2 || WATCHED_WORDS.has(word)) words.push(word);
  }
  return words;
}

/** Selectors that a width media query reveals: mobile-only or desktop-only copies are hidden inline and shown there. */
function revealedByMediaQueries(context: ReportContext): string {
  const revealed: string[] = [];
  for (const rule of context.sheet.rules) {
    if (rule.media === null || mediaApplies(rule.media, false)) continue;
    if (
      rule.declarations.some(
        (declaration) => (declaration.property === 'display' && declaration.value.toLowerCase() !== 'none') || declaration.property === 'max-height',
      )
    ) {
      revealed.push(rule.selectorText);
    }
  }
  return revealed.join(' ');
}

function respondsToMediaQuery(element: HtmlElement, revealedSelectors: string): boolean {
  if (revealedSelectors.length === 0) return false;
  for (let current: HtmlElement | null = element; current; current = parentElement(current)) {
    const classes = (getAttribute(current, 'class') ?? '').split(/\s+/).filter(Boolean);
    if (classes.some((name) => revealedSelectors.includes(`.${name}`))) return true;
    const id = getAttribute(current, 'id');
    if (id && revealedSelectors.includes(`#${id}`)) return true;
  }
  return false;
}

function isPreheader(element: HtmlElement, firstHidden: HtmlElement | null): boolean {
  if (element === firstHidden) return true;
  const names = `${getAttribute(element, 'class') ?? ''} ${getAttribute(element, 'id') ?? ''}`.toLowerCase();
  return PREHEADER_NAMES.some((name) => names.includes(name)) || getAttribute(element, 'data-skip-in-text') === 'true';
}

/** What the spam rules read: the report context and what is worked out from it once per email. */
interface SpamContext {
  email: ReportContext;
  visibleText: string;
  /** The subject stand-in (<title>), or ''. */
  subject: string;
  bodyTokens: string[];
  subjectTokens: string[];
  /** Whether the content reads as transactional (receipts, resets). */
  transactional: boolean;
  hidden: HiddenText;
}

/** One spam-filter signal: its triggers, in the order the report lists them before sorting. */
type SpamRule = (context: SpamContext) => SpamTrigger[];

/** Text a reader never sees but a filter reads. The preheader and responsive copies are legitimate. */
interface HiddenText {
  /** Characters hidden outside the preheader. */
  chars: number;
  /** Document index of the first element hiding some of them, or -1. */
  firstIndex: number;
  /** Whether some are painted in their background color (rather than hidden by display or size). */
  lowContrast: boolean;
  /** Document index of the first visible run painted in its background color, however short (SpamAssassin's low-contrast rule counts any), or -1. */
  firstLowContrastIndex: number;
  /** Text of every hidden subtree, the preheader's included: filters read it like the rest. */
  text: string;
}

function spamContextOf(email: ReportContext): SpamContext {
  const visibleText = email.visibleText;
  const subject = email.title ?? '';
  const bodyTokens = tokens(visibleText);
  const subjectTokens = tokens(subject);
  // The subject and the body are one token stream here, as a filter reads them.
  const transactional = findPhrases(subjectTokens.concat(bodyTokens), TRANSACTIONAL_INDEX).length >= 2;
  return { email, visibleText, subject, bodyTokens, subjectTokens, transactional, hidden: findHiddenText(email) };
}

/** The engine rules a trigger can come from: the own signals, and the rules whose every trigger has a counterpart. */
type SpamRuleName =
  OwnSignal | 'all-caps-subject' | 'high-image-ratio' | 'raw-ip-link' | 'embedded-content' | 'spam-claim' | 'spam-subject' | 'image-only' | 'empty-text';

/**
 * A trigger with the engine's points (its counterpart's line of COUNTERPART_POINTS, else the rule's own line of
 * OWN_POINTS, or `own` when given) and the counterpart's published score beside them; countEachSignalOnce zeroes
 * the repeats.
 */
function trigger(
  rule: SpamRuleName,
  severity: ReportSeverity,
  message: string,
  where: Partial<ReportIssue> = {},
  counterpart: SpamAssassinRuleName | null = null,
  own?: OwnSignal,
): SpamTrigger {
  const points =
    own === 'short-text-image' && counterpart
      ? shortTextImagePoints(counterpart)
      : own
        ? OWN_POINTS[own]
        : counterpart
          ? COUNTERPART_POINTS[counterpart]
          : OWN_POINTS[rule as OwnSignal];
  return {
    rule,
    severity,
    points,
    weight: round(points * SCORE_PER_POINT),
    message,
    ...where,
    spamAssassinRule: counterpart,
    spamAssassinScore: publishedScore(counterpart),
  };
}

/**
 * SpamAssassin scores a rule once per message, however often it matches, and so does the engine with each
 * signal (a counterpart, or an own rule; each distinct phrase is a signal of its own): the first trigger counts.
 * The phrase list adds at most PHRASE_POINTS_CAP in all.
 */
function countEachSignalOnce(triggers: SpamTrigger[]): void {
  const counted = new Set<string>();
  let phrasePoints = 0;
  for (const each of triggers) {
    const signal = each.spamAssassinRule ?? (each.rule === 'spam-phrase' ? each.message : each.rule);
    if (counted.has(signal)) {
      each.points = 0;
      each.spamAssassinScore = 0;
    } else if (each.rule === 'spam-phrase') {
      each.points = round(Math.min(each.points, PHRASE_POINTS_CAP - phrasePoints), 3);
      phrasePoints += each.points;
    }
    each.weight = round(each.points * SCORE_PER_POINT);
    counted.add(signal);
  }
}

function capsTriggers({ visibleText }: SpamContext): SpamTrigger[] {
  const caps = capsRatio(visibleText);
  if (caps.eligible < 10 || caps.ratio <= 0.3) return [];
  return [
    trigger(
      'caps-ratio',
      'warning',
      `${Math.round(caps.ratio * 100)}% of the words are in capitals; filters read shouting as promotional pressure.`,
      {},
      uppercaseRule(caps.ratio),
    ),
  ];
}

function allCapsSubjectTriggers({ subject }: SpamContext): SpamTrigger[] {
  const subjectCaps = capsRatio(subject);
  if (subjectCaps.eligible < 3 || subjectCaps.ratio <= 0.5) return [];
  return [trigger('all-caps-subject', 'warning', 'The subject (<title>) is mostly in capitals.', {}, 'SUBJ_ALL_CAPS')];
}

const isCurrencySign = (code: number): boolean => code === 0x24 || code === 0x20ac || code === 0xa3 || code === 0xa5;
const isBangOrQuery = (code: number): boolean => code === 0x21 || code === 0x3f;

/** The longest run of `!` and `?` (mixed), and of currency signs ($ € £ ¥, one sign repeated): one pass, no pattern. */
export function longestRuns(text: string): { marks: number; money: number } {
  let marks = 0;
  let money = 0;
  let markRun = 0;
  let moneyRun = 0;
  let moneyCode = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    markRun = isBangOrQuery(code) ? markRun + 1 : 0;
    if (isCurrencySign(code)) moneyRun = code === moneyCode ? moneyRun + 1 : 1;
    else moneyRun = 0;
    moneyCode = moneyRun > 0 ? code : -1;
    if (markRun > marks) marks = markRun;
    if (moneyRun > money) money = moneyRun;
  }
  return { marks, money };
}

/** Runs at and above this length are stacked punctuation ("!!!", "?!?") or stacked money signs ("$$$"). */
const STACKED_RUN = 3;

function punctuationTriggers({ subject, visibleText }: SpamContext): SpamTrigger[] {
  const punctuated = `${subject} ${visibleText}`;
  let exclamations = 0;
  for (let at = punctuated.indexOf('!'); at !== -1; at = punctuated.indexOf('!', at + 1)) exclamations++;
  const runs = longestRuns(punctuated);
  const triggers: SpamTrigger[] = [];
  if (runs.marks >= STACKED_RUN || exclamations > Math.max(5, punctuated.length / 200))
    triggers.push(
      trigger(
        'excessive-punctuation',
        'warning',
        `${exclamations} exclamation marks${runs.marks >= STACKED_RUN ? ` and a run of ${runs.marks} ! or ?` : ''}; filters score stacked punctuation as spam.`,
      ),
    );
  if (runs.money >= STACKED_RUN)
    triggers.push(trigger('money-symbols', 'warning', `A run of ${runs.money} currency signs ("$$$"); filters score stacked money signs as spam.`));
  return triggers;
}

/** The preheader: the first hidden element with text, if it comes before any visible text. */
function findPreheader(context: ReportContext, bodyIndex: number, bodyEnd: number): HtmlElement | null {
  const { index } = context.doc;
  for (let i = bodyIndex + 1; i <= bodyEnd; i++) {
    const element = index.elements[i];
    if (context.styles.hiddenAt(i) !== null) {
      if (SHOWS.test(textContent(element))) return element;
      // Hidden and without text (a <style> in the body, an empty spacer): neither preheader nor visible text.
      i = index.end[i];
      continue;
    }
    if (childrenOf(element).some((child) => isText(child) && SHOWS.test(child.value))) return null;
  }
  return null;
}

function noteHidden(hidden: HiddenText, at: number, length: number): void {
  hidden.chars += length;
  if (hidden.firstIndex === -1 || at < hidden.firstIndex) hidden.firstIndex = at;
}

/** Hidden subtrees, counted once at their root (then skipped as a range). */
function noteHiddenSubtrees(context: ReportContext, hidden: HiddenText, preheader: HtmlElement | null, bodyIndex: number, bodyEnd: number): void {
  const { index } = context.doc;
  const revealedSelectors = revealedByMediaQueries(context);
  for (let i = bodyIndex + 1; i <= bodyEnd; i++) {
    if (context.styles.hiddenAt(i) === null) continue;
    const element = index.elements[i];
    const root = i;
    i = index.end[i];
    const content = textContent(element);
    if (SHOWS.test(content)) hidden.text += ` ${content}`;
    if (respondsToMediaQuery(element, revealedSelectors)) continue;
    const text = collapseWhitespace(stripInvisible(content));
    // A preheader shows in the inbox list, up to what a list shows; text beyond that only a filter reads.
    const length = isPreheader(element, preheader) ? text.length - PREHEADER_ALLOWANCE : text.length;
    if (length >= 20) noteHidden(hidden, root, length);
  }
}

/** Visible elements whose own text is tiny or painted in the background color (the text runs are exactly those with text). */
function noteInvisibleRuns(context: ReportContext, hidden: HiddenText, preheader: HtmlElement | null): void {
  for (const run of context.textRuns) {
    const sameColor = run.fontSizePx >= 2 && isSameColorAsBackground(context, run.index);
    if (!(run.fontSizePx < 2 || sameColor)) continue;
    const text = collapseWhitespace(stripInvisible(ownText(run.element)));
    if (sameColor && hidden.firstLowContrastIndex === -1 && SHOWS.test(text)) hidden.firstLowContrastIndex = run.index;
    if (text.length < 20 || isPreheader(run.element, preheader)) continue;
    noteHidden(hidden, run.index, text.length);
    hidden.lowContrast ||= sameColor;
  }
}

function findHiddenText(context: ReportContext): HiddenText {
  const { doc } = context;
  const bodyIndex = doc.body ? doc.index.of(doc.body) : -1;
  const bodyEnd = doc.body ? doc.index.end[bodyIndex] : -1;
  const preheader = findPreheader(context, bodyIndex, bodyEnd);
  const hidden: HiddenText = { chars: 0, firstIndex: -1, lowContrast: false, firstLowContrastIndex: -1, text: '' };
  noteHiddenSubtrees(context, hidden, preheader, bodyIndex, bodyEnd);
  noteInvisibleRuns(context, hidden, preheader);
  return hidden;
}

function hiddenTextTriggers({ email, hidden }: SpamContext): SpamTrigger[] {
  const firstHiddenElement = hidden.firstIndex === -1 ? null : email.doc.index.elements[hidden.firstIndex];
  if (hidden.chars > 0 && firstHiddenElement)
    return [
      trigger(
        'hidden-text',
        'error',
        `${hidden.chars} characters of text are hidden (display:none, zero size or text colored like its background) outside the preheader; filters treat hidden text as keyword stuffing.`,
        email.doc.at(firstHiddenElement),
        hidden.lowContrast ? 'HTML_FONT_LOW_CONTRAST' : null,
      ),
    ];
  // Shorter text in its background color (a separator, a spacer word): SpamAssassin's low-contrast rule still counts it.
  if (hidden.firstLowContrastIndex === -1) return [];
  return [
    trigger(
      'low-contrast-text',
      'info',
      'Some text is colored like its background; SpamAssassin scores any such text, however short.',
      email.doc.at(email.doc.index.elements[hidden.firstLowContrastIndex]),
      'HTML_FONT_LOW_CONTRAST',
      'low-contrast-text',
    ),
  ];
}

function spamPhraseTriggers({ subjectTokens, bodyTokens, hidden }: SpamContext): SpamTrigger[] {
  // The subject, the body and the hidden text are one token stream here, as a filter reads them.
  const phraseTokens =
    hidden.text === '' ? subjectTokens.concat(['\u0000'], bodyTokens) : subjectTokens.concat(['\u0000'], bodyTokens, ['\u0000'], tokens(hidden.text));
  return findPhrases(phraseTokens, SPAM_INDEX).map((phrase) =>
    trigger('spam-phrase', 'info', `"${phrase}" is a phrase spam filters score.`, {}, PHRASE_RULES.get(phrase) ?? null),
  );
}

/** Claims, punctuation and sums of money SpamAssassin's body and subject rules score (spam-claims.ts). */
function claimTriggers({ subject, visibleText }: SpamContext): SpamTrigger[] {
  return findSpamClaims(subject, visibleText).map((claim) =>
    claim.reads === 'subject'
      ? trigger('spam-subject', 'warning', `The subject (<title>) has ${claim.describe}, which spam filters score.`, {}, claim.counterpart)
      : trigger('spam-claim', 'warning', `The text has ${claim.describe}, which spam filters score.`, {}, claim.counterpart),
  );
}

function obfuscatedTextTriggers({ visibleText }: SpamContext): SpamTrigger[] {
  const obfuscated = ZERO_WIDTH.test(visibleText) ? obfuscatedWords(visibleText) : [];
  if (obfuscated.length === 0) return [];
  return [
    trigger(
      'obfuscated-text',
      'warning',
      `Zero-width characters split ${obfuscated.length === 1 ? 'the word' : 'words such as'} "${obfuscated[0]}"; filters read this as an attempt to hide words from them.`,
    ),
  ];
}

function imageTriggers({ email, visibleText, bodyTokens, hidden }: SpamContext): SpamTrigger[] {
  const contentImages = email.images.filter((image) => !image.isTrackingPixel && !image.hidden && image.kind === 'img');
  const words = bodyTokens.length;
  if (words === 0 && hidden.text === '' && contentImages.length === 0)
    return [trigger('empty-text', 'warning', 'The email has no text at all; filters score a message without text.', {}, 'EMPTY_MESSAGE')];
  const textBytes = utf8Length(visibleText);
  const counterpart = imageOnlyRule(textBytes);
  const largeImages = contentImages.filter((image) => (image.width ?? 0) >= LARGE_IMAGE_PX || (image.height ?? 0) >= LARGE_IMAGE_PX).length;
  // Every image declared smaller than a phone's width (a logo): a short note, not an image email.
  const small = largeImages === 0 && contentImages.every((image) => image.width !== null || image.height !== null);
  if (contentImages.length > 0 && (words < 20 || (largeImages > 0 && words < IMAGE_CAPTION_WORDS)) && !small && counterpart !== null) {
    return [
      trigger(
        'image-only',
        'error',
        `The email is essentially images (${contentImages.length}) with ${words} words of text; filters cannot read images and score image-only mail as spam.`,
        {},
        counterpart,
      ),
    ];
  }
  const triggers: SpamTrigger[] = [];
  // SpamAssassin's image-only rules count any <img> beside under 3,200 bytes of text: a weak signal on its own.
  if (counterpart !== null && email.images.some((image) => image.kind === 'img'))
    triggers.push(
      trigger(
        'short-text-image',
        'info',
        `${textBytes} bytes of text beside images; SpamAssassin's ${counterpart} counts any image beside this little text, though a logo above a short note is not an image email.`,
        {},
        counterpart,
        'short-text-image',
      ),
    );
  // Icons (social links, bullets) take no room from the text: only pictures count against it.
  const pictures = contentImages.filter((image) => !isIcon(image)).length;
  if (pictures >= 2 && visibleText.length / pictures < 150) {
    triggers.push(
      trigger(
        'high-image-ratio',
        'warning',
        `${pictures} images for ${visibleText.length} characters of text; keep at least about 60% text.`,
        {},
        'HTML_IMAGE_RATIO_02',
      ),
    );
  }
  return triggers;
}

/** Per link, in link order: shorteners, raw IPs, executables, abused TLDs, and text that shows another site. */
function linkTriggers({ email }: SpamContext): SpamTrigger[] {
  const triggers: SpamTrigger[] = [];
  for (const link of email.links) {
    const { classified } = link;
    if (!classified.host) continue;
    const where = { line: link.position.line, column: link.position.column, element: link.excerpt, url: link.href };
    const host = classified.host;
    if (hostMatches(host, URL_SHORTENERS))
      triggers.push(
        trigger('url-shortener', 'warning', `${host} is a URL shortener; spammers hide destinations behind them, so filters distrust them.`, where),
      );
    if (isIpHost(host))
      triggers.push(trigger('raw-ip-link', 'error', `The link goes to a bare IP address (${host}) instead of a domain.`, where, 'NUMERIC_HTTP_ADDR'));
    const path = classified.url?.pathname.toLowerCase() ?? '';
    if (EXECUTABLE_EXTENSIONS.some((extension) => path.endsWith(extension)))
      triggers.push(trigger('executable-link', 'error', 'The link downloads an executable file.', where));
    const tld = host.slice(host.lastIndexOf('.') + 1);
    if (SUSPICIOUS_TLDS.has(tld)) triggers.push(trigger('suspicious-tld', 'info', `.${tld} domains are heavily abused and weigh against the email.`, where));
    const shown = deceptivelyShownDomain(link, host);
    if (shown)
      triggers.push(
        trigger('deceptive-link', 'error', `The link text shows ${shown} but the link goes to ${host}; this is the classic phishing pattern.`, where),
      );
  }
  return triggers;
}

/** A site the link text shows that the href does not go to (click-tracking redirects excepted), or undefined. */
function deceptivelyShownDomain(link: EmailLink, host: string): string | undefined {
  const { classified } = link;
  if (isIpHost(host) || hostMatches(host, TRACKING_DOMAINS) || (classified.url && isTrackedUrl(classified.url) && !classified.url.search)) return undefined;
  const hrefDomain = registrableDomain(host);
  const shown = domainsInText(link.text).find((domain) => !sameSite(domain, host, hrefDomain));
  return shown && !isTrackingRedirect(link) ? shown : undefined;
}

/** Markup that clients strip and filters flag: scripts, forms, embedded content. */
function markupTriggers({ email }: SpamContext): SpamTrigger[] {
  const { doc } = email;
  const triggers: SpamTrigger[] = [];
  for (const element of doc.byTag('script'))
    triggers.push(trigger('script-tag', 'error', '<script> in an email is stripped by every client and flagged by filters.', doc.at(element)));
  for (const element of doc.byTag('form'))
    triggers.push(trigger('form-tag', 'warning', 'Forms in email are disabled by many clients and flagged by some filters.', doc.at(element)));
  for (const tag of ['iframe', 'object', 'embed', 'applet']) {
    const counterpart = tag === 'iframe' ? 'HTML_IFRAME_SRC' : 'HTML_EMBEDS';
    for (const element of doc.byTag(tag))
      triggers.push(trigger('embedded-content', 'warning', `<${tag}> is removed by email clients and flagged by filters.`, doc.at(element), counterpart));
  }
  return triggers;
}

/** The spam rules, in the order their triggers are listed (and SpamAssassin rules counted) before sorting. */
const SPAM_RULES: readonly SpamRule[] = [
  capsTriggers,
  allCapsSubjectTriggers,
  punctuationTriggers,
  hiddenTextTriggers,
  spamPhraseTriggers,
  claimTriggers,
  obfuscatedTextTriggers,
  imageTriggers,
  linkTriggers,
  markupTriggers,
];

/** Bulk-sender requirements: an unsubscribe link and a postal address, relaxed for transactional email. */
function complianceFindings({ email, visibleText, bodyTokens, transactional }: SpamContext): ReportIssue[] {
  const compliance: ReportIssue[] = [];
  if (!email.links.some(linkMatchesUnsubscribe)) {
    if (transactional)
      compliance.push({
        rule: 'missing-unsubscribe',
        severity: 'info',
        message: 'No unsubscribe link; fine for a transactional email, which this appears to be.',
      });
    else
      compliance.push({
        rule: 'missing-unsubscribe',
        severity: 'error',
        message:
          'No unsubscribe link: required for bulk mail (CAN-SPAM, GDPR, Gmail and Yahoo sender rules) and its absence pushes recipients to the spam button.',
      });
  }
  if (!hasPhysicalAddress(email, visibleText, bodyTokens)) {
    if (transactional)
      compliance.push({ rule: 'missing-physical-address', severity: 'info', message: 'No postal address found; fine for a transactional email.' });
    else
      compliance.push({
        rule: 'missing-physical-address',
        severity: 'warning',
        message: "No postal address found; CAN-SPAM and many national laws require the sender's physical address in commercial email.",
      });
  }
  return compliance.sort(compareIssues);
}

export function buildSpamReport(context: ReportContext): SpamReport {
  const spamContext = spamContextOf(context);
  const triggers: SpamTrigger[] = [];
  for (const rule of SPAM_RULES) for (const each of rule(spamContext)) triggers.push(each);
  countEachSignalOnce(triggers);
  const points = round(
    triggers.reduce((sum, each) => sum + each.points, 0),
    3,
  );
  const spamAssassinPoints = round(
    triggers.reduce((sum, each) => sum + each.spamAssassinScore, 0),
    3,
  );
  const score = Math.max(0, Math.min(100, Math.round(100 - SCORE_PER_POINT * points)));
  const level = spamRiskLevel(points);
  return {
    score,
    level,
    points,
    spamAssassinPoints,
    requiredScore: SPAMASSASSIN_REQUIRED_SCORE,
    spamAssassinVersion: SPAMASSASSIN_VERSION,
    transactional: spamContext.transactional,
    triggers: sortTriggers(triggers),
    compliance: complianceFindings(spamContext),
    levelSource: 'engine',
    levelNote: engineLevelNote(level, points, spamAssassinPoints),
    triggersWithoutCounterpart: triggers.filter((each) => each.spamAssassinRule === null).length,
  };
}

/** The sentence that says the level is the engine's estimate, not SpamAssassin's verdict. */
export function engineLevelNote(level: SpamReport['level'], points: number, spamAssassinPoints: number): string {
  return (
    `Engine estimate, SpamAssassin not consulted: ${level} risk from ${points} points by the engine's own weights (high from ${SPAMASSASSIN_REQUIRED_SCORE}). ` +
    `SpamAssassin's published scores give the same signals ${spamAssassinPoints}; SpamAssassin itself, with full headers, Bayes and network tests, may score the message differently.`
  );
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function sortTriggers(triggers: SpamTrigger[]): SpamTrigger[] {
  return triggers.sort(
    (a, b) =>
      b.weight - a.weight ||
      (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
      (a.message < b.message ? -1 : 1),
  );
}

/** Social-network and icon images by their alt text or file name, when no size is declared. */
const ICON_NAME =
  /(?:^|[^a-z])(?:facebook|twitter|instagram|linkedin|youtube|pinterest|tiktok|google\+|rss|icons?|social|spacer|transparent|blank)(?:[^a-z]|$)/i;

/** An icon (social links, bullets) or a spacer: it takes no room from the text. */
function isIcon(image: EmailImage): boolean {
  if (image.width !== null && image.width <= ICON_PX && (image.height === null || image.height <= ICON_PX)) return true;
  return image.width === null && (ICON_NAME.test(image.alt ?? '') || ICON_NAME.test(image.src.slice(image.src.lastIndexOf('/') + 1)));
}

function isTrackingRedirect(link: EmailLink): boolean {
  // A redirect that carries the real destination in a parameter is tracking, not deception.
  const url = link.classified.url;
  if (!url) return false;
  for (const value of url.searchParams.values()) if (/^https?:\/\//i.test(value)) return true;
  return false;
}

/** Text painted in (nearly) its background color: contrast under 1.1:1. */
function isSameColorAsBackground(context: ReportContext, index: number): boolean {
  const painted = context.light.paintedTextAt(index);
  if (!painted) return false;
  const { foreground, background } = painted;
  // Cheap pre-check: visibly different channels cannot be under 1.1:1; culori decides the close calls.
  const channelGap = Math.max(
    Math.abs(foreground.r - background.color.r),
    Math.abs(foreground.g - background.color.g),
    Math.abs(foreground.b - background.color.b),
  );
  if (channelGap > 0.25) return false;
  return contrastRatio(foreground, background.color) < 1.1;
}
