/**
 * The engine's own spam weights, in points on SpamAssassin's scale (its required score, 5, is "high"; half of it
 * "medium"), each written beside the published set-0 score of the SpamAssassin rule that is the same signal
 * (SPAMASSASSIN_SCORES, checked against the installed rule files), or beside nothing when SpamAssassin's local
 * rules have no counterpart.
 *
 * Why the engine's own: SpamAssassin's scores are optimised together with its Bayes classifier and its network
 * tests, which carry most of the weight of phrase spam ("FREE!!! 100% FREE $$$ WINNER" scores 0.6 by its local
 * rules alone). The engine has neither, so it weighs the content signals itself: the weights below were set on
 * the development half of `npm run check:spam` (docs/accuracy.md, "Spam"), never on the held-out half.
 *
 * Two bounds hold for every weight (spam-report.spec.ts checks them): no single signal reaches
 * MAX_SIGNAL_POINTS, half the required score, so one rule alone (an image-only layout, a shortener, a
 * deceptive link) never makes an email more than medium risk; high risk needs signals that agree. The phrase
 * list adds at most PHRASE_POINTS_CAP in all.
 */
import { SPAMASSASSIN_REQUIRED_SCORE, SPAMASSASSIN_SCORES, type SpamAssassinRuleName } from './spamassassin-scores';

/** No single signal weighs more than this: half of SpamAssassin's required score. */
export const MAX_SIGNAL_POINTS = SPAMASSASSIN_REQUIRED_SCORE / 2;

/**
 * The engine's points for each SpamAssassin counterpart (the published set-0 score is beside it in the comment
 * and in SPAMASSASSIN_SCORES). Where ours differs, the line says why.
 */
export const COUNTERPART_POINTS: Readonly<Record<SpamAssassinRuleName, number>> = {
  // Capitals. SpamAssassin 0.001 and 1.48: 50-75% capitals is shouting too, even if SpamAssassin's optimiser leaves
  // it to Bayes; 75-100% at 1 (1.48 ranked the development half's variants worse: ρ 0.667 against 0.688).
  UPPERCASE_50_75: 0.8,
  UPPERCASE_75_100: 1,
  // SpamAssassin 0.5: an all-capitals subject is the first thing an inbox shows.
  SUBJ_ALL_CAPS: 1,
  // HTML. SpamAssassin 0.713.
  HTML_FONT_LOW_CONTRAST: 1.5,
  // Image-only by bytes of text, as published (1.68, 0.585, 1.381, 1.969, 2.109, 2.799 capped, 2.799 capped, 2.196);
  // only when an image may fill the screen: a short note with a logo is OWN_POINTS['short-text-image'] instead.
  HTML_IMAGE_ONLY_04: 1.68,
  HTML_IMAGE_ONLY_08: 0.585,
  HTML_IMAGE_ONLY_12: 1.381,
  HTML_IMAGE_ONLY_16: 1.969,
  HTML_IMAGE_ONLY_20: 2.109,
  HTML_IMAGE_ONLY_24: 2.4,
  HTML_IMAGE_ONLY_28: 2.4,
  HTML_IMAGE_ONLY_32: 2.196,
  // SpamAssassin 0.001.
  HTML_IMAGE_RATIO_02: 0.5,
  // SpamAssassin 2.195: a message with no text at all (an unfilled layout is the usual legitimate case).
  EMPTY_MESSAGE: 1.5,
  // SpamAssassin 0.001 and 0: markup that clients strip and that only spam tools leave in.
  HTML_EMBEDS: 0.5,
  HTML_IFRAME_SRC: 0.5,
  // SpamAssassin 0 (its network tests judge the address): a bare IP as a link's host.
  NUMERIC_HTTP_ADDR: 1.5,
  // Phrases, as published (DEAR_FRIEND 2.683 capped).
  DEAR_FRIEND: 2.4,
  GUARANTEED_100_PERCENT: 2.4,
  LOW_PRICE: 0.5,
  DIET_1: 0.714,
  MONEY_BACK: 2.4,
  ONE_TIME: 1.84,
  DRUGS_ERECTILE: 1.778,
  // Claims: as published, capped (DEAR_WINNER 3.099, UNCLAIMED_MONEY 2.699, FREE_QUOTE_INSTANT 2.7);
  // ACT_NOW_CAPS 0.1 and BILLION_DOLLARS 0.001 are shouted claims SpamAssassin leaves to Bayes.
  ACT_NOW_CAPS: 0.5,
  BANG_GUAR: 1,
  DEAR_WINNER: 2.4,
  UNCLAIMED_MONEY: 2.4,
  URG_BIZ: 1.75,
  FREE_QUOTE_INSTANT: 2.4,
  BILLION_DOLLARS: 1,
  // Subject rules, as published, capped (SUBJ_AS_SEEN 2.711, SUBJ_YOUR_FAMILY 2.91).
  PLING_QUERY: 0.5,
  SUBJ_DOLLARS: 0.5,
  SUBJ_BUY: 0.594,
  ENGLISH_UCE_SUBJECT: 0.953,
  SUBJ_AS_SEEN: 2.4,
  SUBJ_YOUR_FAMILY: 2.4,
  SUBJECT_DIET: 1.927,
};

/** The engine's points for the signals SpamAssassin's local rules have no counterpart for. */
export const OWN_POINTS = {
  /** 30-50% of the words in capitals (SpamAssassin's rules start at 50%). */
  'caps-ratio': 0.3,
  /** A run of three or more `!`/`?`, or many exclamation marks. */
  'excessive-punctuation': 1,
  /** A run of three or more currency signs ("$$$"). */
  'money-symbols': 1,
  /** A listed spam phrase without a SpamAssassin counterpart, each distinct phrase (up to PHRASE_POINTS_CAP in all). */
  'spam-phrase': 1,
  /** Text hidden by display:none, zero size or sub-2px type (colored like its background is HTML_FONT_LOW_CONTRAST). */
  'hidden-text': 1.5,
  /** Zero-width characters inside watched words. */
  'obfuscated-text': 2,
  /**
   * Any image beside under 3,200 bytes of text, when it is not an image-only email (a logo above a short note):
   * SHORT_TEXT_IMAGE_SHARE of the published score of SpamAssassin's HTML_IMAGE_ONLY_xx for that much text, which
   * fires on any image there (shortTextImagePoints); the entry here only names the signal.
   */
  'short-text-image': 0,
  /** Text colored like its background but too short to hide anything (a separator): HTML_FONT_LOW_CONTRAST (0.713) counts it too. */
  'low-contrast-text': 0.5,
  /** A link through a URL shortener (SpamAssassin's shortener rules need network tests). */
  'url-shortener': 0.5,
  /** A link to an executable file. */
  'executable-link': 2,
  /** A link under a heavily abused TLD. */
  'suspicious-tld': 0.5,
  /** Link text that shows another site than the link's. */
  'deceptive-link': 2,
  /** `<script>` in the email. */
  'script-tag': 1,
  /** `<form>` in the email. */
  'form-tag': 0.5,
} as const;

export type OwnSignal = keyof typeof OWN_POINTS;

/** The share of the image-only score a short note beside an image weighs (0.1 × 1.68 = 0.168 for 0-400 bytes of text). */
export const SHORT_TEXT_IMAGE_SHARE = 0.1;

/** The engine's points for a short note beside images, by the image-only rule SpamAssassin fires for its text length. */
export function shortTextImagePoints(counterpart: SpamAssassinRuleName): number {
  return Math.round(SHORT_TEXT_IMAGE_SHARE * SPAMASSASSIN_SCORES[counterpart] * 1000) / 1000;
}

/** The most the phrase list adds in all (its phrases with a counterpart weigh as their counterpart, inside this cap too). */
export const PHRASE_POINTS_CAP = 4;

/** The published set-0 score beside our points, for the docs and the report (0 when SpamAssassin has no counterpart). */
export function publishedScore(counterpart: SpamAssassinRuleName | null): number {
  return counterpart === null ? 0 : SPAMASSASSIN_SCORES[counterpart];
}
