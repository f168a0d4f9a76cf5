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

// The published SpamAssassin scores the engine carries beside its own weights (libs/engine/src/reports/spamassassin-scores.ts;
// the engine's points are in spam-weights.ts).
// Checked here against the rule files Debian's `spamassassin` package installs (CI installs it, .ci/run); where
// it is not installed these tests fail naming the package: a comparison that did not run has not passed.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const { readRules, installedVersion, RULES_DIR } = require('../../scripts/lib/spamassassin-rules');

const version: string | null = installedVersion();
/** A test that compares with the installed rule files: it fails, never skips, without them. */
const whenInstalled = (name: string, body: () => void) =>
  it(name, () => {
    if (!version)
      throw new Error(`SpamAssassin is not installed (${RULES_DIR}): run "apt-get install -y spamassassin" (CI's .ci/run does). This test does not skip.`);
    body();
  });

describe('the engine spam score table', () => {
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
