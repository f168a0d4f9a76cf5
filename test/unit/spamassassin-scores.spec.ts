import { readFileSync } from 'node:fs';
import { SPAM_PHRASES } from '../../libs/engine/src/reports/spam-phrases';
import { SPAM_COUNTERPARTS, tokens } from '../../libs/engine/src/reports/spam-report';
import {
  PHRASE_COUNTERPARTS,
  SPAMASSASSIN_REQUIRED_SCORE,
  SPAMASSASSIN_SCORES,
  SPAMASSASSIN_SCORE_SET,
  SPAMASSASSIN_VERSION,
} from '../../libs/engine/src/reports/spamassassin-scores';

// The engine's spam weights are SpamAssassin's published scores (libs/engine/src/reports/spamassassin-scores.ts).
// Checked here against the rule files Debian's `spamassassin` package installs (CI installs it); where it is
// not installed the comparison is skipped and says so.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const { readRules, installedVersion, RULES_DIR } = require('../../scripts/lib/spamassassin-rules');

const version: string | null = installedVersion();
const whenInstalled = version ? it : it.skip;

describe('the engine spam score table', () => {
  if (!version)
    it('has SpamAssassin rule files to compare with', () => console.warn(`SpamAssassin is not installed (${RULES_DIR}): the score table was not compared`));

  whenInstalled('names the installed SpamAssassin version', () => {
    expect(version).toBe(SPAMASSASSIN_VERSION);
  });

  whenInstalled("carries each rule's published score of set 0, and every rule is described in the rule files", () => {
    const rules = readRules();
    const differences = Object.entries(SPAMASSASSIN_SCORES)
      .map(([name, score]) => ({
        name,
        table: score,
        published: rules.get(name)?.scores?.[SPAMASSASSIN_SCORE_SET] ?? null,
        describe: rules.get(name)?.describe ?? null,
      }))
      .filter((rule) => rule.published !== rule.table || rule.describe === null);
    expect(differences).toEqual([]);
  });

  whenInstalled("uses SpamAssassin's default required score", () => {
    const prefs = readFileSync(`${RULES_DIR}/10_default_prefs.cf`, 'latin1');
    expect(Number(/^required_score\s+([\d.]+)/m.exec(prefs)?.[1])).toBe(SPAMASSASSIN_REQUIRED_SCORE);
  });

  it('maps every counterpart to a rule of the table and every phrase counterpart to a listed phrase', () => {
    for (const names of Object.values(SPAM_COUNTERPARTS)) for (const name of names) expect(Object.keys(SPAMASSASSIN_SCORES)).toContain(name);
    const listed = new Set(SPAM_PHRASES.map((phrase) => tokens(phrase).join(' ')));
    for (const phrase of Object.keys(PHRASE_COUNTERPARTS)) expect([phrase, listed.has(tokens(phrase).join(' '))]).toEqual([phrase, true]);
  });
});
