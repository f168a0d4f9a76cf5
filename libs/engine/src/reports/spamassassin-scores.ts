/**
 * The spam report's weights, taken from SpamAssassin's published rule scores rather than chosen here: where
 * an engine rule is the same signal as a SpamAssassin rule, it scores that rule's score. Facts only (rule
 * names and scores from the rule files' `score` lines); no SpamAssassin pattern or text is copied. The table
 * is checked against the installed rule files by test/unit/spamassassin-scores.spec.ts (Debian's
 * `spamassassin` package, /usr/share/spamassassin) and printed by `npm run check:spam`.
 */

/** The SpamAssassin release the scores come from (Debian 12's `spamassassin` 4.0.1). */
export const SPAMASSASSIN_VERSION = '4.0.1';

/**
 * Which of a rule's four published scores: set 0 is local tests without Bayes, what a spamd run with
 * `--local` and an untrained Bayes database applies (the engine has no network tests and no Bayes either).
 */
export const SPAMASSASSIN_SCORE_SET = 0;

/** SpamAssassin's default `required_score` (10_default_prefs.cf): at or above it a message is spam. */
export const SPAMASSASSIN_REQUIRED_SCORE = 5;

/** Score set 0 of every SpamAssassin rule the engine mirrors, as published in SpamAssassin 4.0.1's rule files. */
export const SPAMASSASSIN_SCORES = {
  // Capitals (20_meta_tests.cf, 20_head_tests.cf).
  UPPERCASE_50_75: 0.001,
  UPPERCASE_75_100: 1.48,
  SUBJ_ALL_CAPS: 0.5,
  // HTML (20_html_tests.cf).
  HTML_FONT_LOW_CONTRAST: 0.713,
  HTML_IMAGE_ONLY_04: 1.68,
  HTML_IMAGE_ONLY_08: 0.585,
  HTML_IMAGE_ONLY_12: 1.381,
  HTML_IMAGE_ONLY_16: 1.969,
  HTML_IMAGE_ONLY_20: 2.109,
  HTML_IMAGE_ONLY_24: 2.799,
  HTML_IMAGE_ONLY_28: 2.799,
  HTML_IMAGE_ONLY_32: 2.196,
  HTML_IMAGE_RATIO_02: 0.001,
  // Whole message (20_meta_tests.cf): no text at all.
  EMPTY_MESSAGE: 2.195,
  HTML_EMBEDS: 0.001,
  HTML_IFRAME_SRC: 0,
  // Links (20_uri_tests.cf).
  NUMERIC_HTTP_ADDR: 0,
  // Phrases (20_phrases.cf, 20_drugs.cf): the engine's phrases whose SpamAssassin rule describes the same claim.
  DEAR_FRIEND: 2.683,
  GUARANTEED_100_PERCENT: 2.699,
  LOW_PRICE: 0.1,
  DIET_1: 0.714,
  MONEY_BACK: 2.91,
  ONE_TIME: 1.84,
  DRUGS_ERECTILE: 1.778,
  // Claims, punctuation and money in the subject and body (20_phrases.cf, 72_active.cf): spam-claims.ts.
  ACT_NOW_CAPS: 0.1,
  BANG_GUAR: 1,
  DEAR_WINNER: 3.099,
  UNCLAIMED_MONEY: 2.699,
  URG_BIZ: 1.75,
  FREE_QUOTE_INSTANT: 2.7,
  BILLION_DOLLARS: 0.001,
  // The subject alone (20_head_tests.cf): spam-claims.ts.
  PLING_QUERY: 0.1,
  SUBJ_DOLLARS: 0.1,
  SUBJ_BUY: 0.594,
  ENGLISH_UCE_SUBJECT: 0.953,
  SUBJ_AS_SEEN: 2.711,
  SUBJ_YOUR_FAMILY: 2.91,
  SUBJECT_DIET: 1.927,
} as const;

export type SpamAssassinRuleName = keyof typeof SPAMASSASSIN_SCORES;

/**
 * The engine's phrases (as spam-phrases.ts writes them) that are the claim a SpamAssassin phrase rule
 * describes; the other phrases are listed as findings with no score of their own.
 */
export const PHRASE_COUNTERPARTS: Readonly<Record<string, SpamAssassinRuleName>> = {
  'dear friend': 'DEAR_FRIEND',
  '100% guaranteed': 'GUARANTEED_100_PERCENT',
  'lowest price': 'LOW_PRICE',
  'lose weight': 'DIET_1',
  'satisfait ou rembourse': 'MONEY_BACK',
  'once in a lifetime': 'ONE_TIME',
  'einmalige gelegenheit': 'ONE_TIME',
  viagra: 'DRUGS_ERECTILE',
};

/** SpamAssassin's image-only rules by bytes of text (HTML_IMAGE_ONLY_04 is 0-400 bytes … _32 is 2800-3200). */
export function imageOnlyRule(textBytes: number): SpamAssassinRuleName | null {
  if (textBytes >= 3200) return null;
  const bucket = Math.floor(textBytes / 400) + 1;
  return `HTML_IMAGE_ONLY_${String(bucket * 4).padStart(2, '0')}` as SpamAssassinRuleName;
}

/** SpamAssassin's body-capitals rules by share of capitals (UPPERCASE_50_75, UPPERCASE_75_100); null under 50%. */
export function uppercaseRule(ratio: number): SpamAssassinRuleName | null {
  return ratio >= 0.75 ? 'UPPERCASE_75_100' : ratio >= 0.5 ? 'UPPERCASE_50_75' : null;
}

/**
 * The risk level of a SpamAssassin-scale score: high at the required score (SpamAssassin's spam verdict),
 * medium from half of it, low below. The engine applies it to its points; the preview worker to spamd's score.
 */
export function spamRiskLevel(score: number, requiredScore: number = SPAMASSASSIN_REQUIRED_SCORE): 'low' | 'medium' | 'high' {
  return score >= requiredScore ? 'high' : score >= requiredScore / 2 ? 'medium' : 'low';
}
