/**
 * Claims, punctuation and sums of money that SpamAssassin scores through its body and subject rules, each
 * detected by code of our own (the rule files give only the facts: the rule's name, what it detects and its
 * published score; no pattern is copied). SpamAssassin's body rules read the subject as the first line of the
 * body, so body claims are looked for in both; subject rules only in the subject (the `<title>` here).
 */
import { tokens } from './spam-tokens';
import type { SpamAssassinRuleName } from './spamassassin-scores';

export interface SpamClaim {
  /** The SpamAssassin rule that scores this claim. */
  counterpart: SpamAssassinRuleName;
  /** Where the rule reads: the subject only, or the subject and the body. */
  reads: 'subject' | 'body';
  /** What the claim is, for the trigger's message. */
  describe: string;
  /** Whether the text (the subject, or the subject and body joined) makes the claim. */
  matches(text: string, words: readonly string[]): boolean;
}

/** Whether `word` is followed, within `within` words, by one of `next` (word-token sequence). */
function followedBy(words: readonly string[], word: string, next: ReadonlySet<string>, within: number): boolean {
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== word) continue;
    for (let j = i + 1; j <= i + within && j < words.length; j++) if (next.has(words[j])) return true;
  }
  return false;
}

/** Whether one of `first` is directly followed by one of `second`. */
function pairFollows(words: readonly string[], first: ReadonlySet<string>, second: ReadonlySet<string>): boolean {
  for (let i = 0; i + 1 < words.length; i++) if (first.has(words[i]) && second.has(words[i + 1])) return true;
  return false;
}

/** Words of the raw text with their case kept (letters and digits only). */
function casedWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

const MONEY_NOUNS = new Set([
  'money',
  'monies',
  'funds',
  'fund',
  'assets',
  'asset',
  'balance',
  'prize',
  'prizes',
  'reward',
  'rewards',
  'payment',
  'payments',
  'deposit',
  'deposits',
  'account',
  'accounts',
]);
const URGENT_MATTERS = new Set(['assistance', 'business', 'proposal', 'reply', 'response', 'request', 'notice', 'confidential', 'buy']);
const QUOTE_WORDS = new Set(['quote', 'quotes']);
const QUOTE_QUALIFIERS = new Set(['instant', 'express', 'online', 'obligation']);
const WEIGHT_WORDS = new Set(['pounds', 'lbs', 'weight']);

export const SPAM_CLAIMS: readonly SpamClaim[] = [
  {
    counterpart: 'ACT_NOW_CAPS',
    reads: 'body',
    describe: '"Act Now" written with capitals',
    matches: (text) => {
      const words = casedWords(text);
      for (let i = 0; i + 1 < words.length; i++) {
        if (words[i].toLowerCase() === 'act' && words[i + 1].toLowerCase() === 'now' && words[i][0] === 'A' && words[i + 1][0] === 'N') return true;
      }
      return false;
    },
  },
  {
    counterpart: 'BANG_GUAR',
    reads: 'body',
    describe: 'a guarantee with an exclamation mark',
    matches: (text) => {
      const lower = text.toLowerCase();
      for (let at = lower.indexOf('guarantee'); at !== -1; at = lower.indexOf('guarantee', at + 1)) {
        if (at > 0 && /[\p{L}\p{N}]/u.test(lower[at - 1])) continue;
        const end = lower.startsWith('guaranteed', at) ? at + 10 : at + 9;
        if (lower[end] === '!') return true;
      }
      return false;
    },
  },
  {
    counterpart: 'DEAR_WINNER',
    reads: 'body',
    describe: 'a "dear winner" salutation',
    matches: (_text, words) => followedBy(words, 'dear', new Set(['winner', 'winners']), 3),
  },
  {
    counterpart: 'UNCLAIMED_MONEY',
    reads: 'body',
    describe: 'unclaimed money, funds or prizes',
    matches: (_text, words) => pairFollows(words, new Set(['unclaimed']), MONEY_NOUNS),
  },
  {
    counterpart: 'URG_BIZ',
    reads: 'body',
    describe: 'an urgent business matter, request or reply',
    matches: (_text, words) => followedBy(words, 'urgent', URGENT_MATTERS, 3),
  },
  {
    counterpart: 'FREE_QUOTE_INSTANT',
    reads: 'body',
    describe: 'a free instant, online or no-obligation quote',
    matches: (_text, words) => {
      for (let i = 0; i < words.length; i++) {
        if (words[i] !== 'free') continue;
        const window = words.slice(i + 1, i + 8);
        const quote = window.findIndex((word) => QUOTE_WORDS.has(word));
        if (quote > 0 && window.slice(0, quote).some((word) => QUOTE_QUALIFIERS.has(word))) return true;
      }
      return false;
    },
  },
  {
    counterpart: 'BILLION_DOLLARS',
    reads: 'body',
    describe: 'MILLION or BILLION DOLLARS in capitals',
    matches: (text) => {
      const words = casedWords(text);
      for (let i = 0; i + 1 < words.length; i++) {
        if ((words[i] === 'MILLION' || words[i] === 'BILLION') && words[i + 1].startsWith('DOLLAR')) return true;
      }
      return false;
    },
  },
  {
    counterpart: 'PLING_QUERY',
    reads: 'subject',
    describe: 'an exclamation mark and a question mark in the subject',
    matches: (text) => text.includes('!') && text.includes('?'),
  },
  {
    counterpart: 'SUBJ_DOLLARS',
    reads: 'subject',
    describe: 'a subject that opens with a dollar amount',
    matches: (text) => text.startsWith('$') && text.length > 1 && text[1] >= '0' && text[1] <= '9',
  },
  {
    counterpart: 'SUBJ_BUY',
    reads: 'subject',
    describe: 'a subject that opens with "Buy"',
    matches: (text) => text.toLowerCase().startsWith('buy'),
  },
  {
    counterpart: 'ENGLISH_UCE_SUBJECT',
    reads: 'subject',
    describe: 'an advertising tag ("ADV:") opening the subject',
    matches: (text) => {
      const first = text.replace(/^[^\p{L}\p{N}]+/u, '').toLowerCase();
      return /^adv(?:ert)?(?![\p{L}\p{N}])/u.test(first);
    },
  },
  {
    counterpart: 'SUBJ_AS_SEEN',
    reads: 'subject',
    describe: '"as seen" (on TV) in the subject',
    matches: (_text, words) => pairFollows(words, new Set(['as']), new Set(['seen'])),
  },
  {
    counterpart: 'SUBJ_YOUR_FAMILY',
    reads: 'subject',
    describe: '"your family" in the subject',
    matches: (_text, words) => pairFollows(words, new Set(['your']), new Set(['family'])),
  },
  {
    counterpart: 'SUBJECT_DIET',
    reads: 'subject',
    describe: 'losing pounds or weight in the subject',
    matches: (_text, words) => followedBy(words, 'lose', WEIGHT_WORDS, words.length),
  },
];

/** The claims the subject and the body make, in SPAM_CLAIMS order. */
export function findSpamClaims(subject: string, body: string): SpamClaim[] {
  const subjectWords = tokens(subject);
  const bodyText = subject === '' ? body : `${subject}\n${body}`;
  const bodyWords = subject === '' ? tokens(body) : subjectWords.concat(tokens(body));
  return SPAM_CLAIMS.filter((claim) => (claim.reads === 'subject' ? claim.matches(subject, subjectWords) : claim.matches(bodyText, bodyWords)));
}
