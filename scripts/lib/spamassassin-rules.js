// SpamAssassin's installed rule files, read for facts only: each rule's published scores (`score` lines)
// and its description (`describe` lines, English). Used by the test that checks the engine's score table
// (libs/engine/src/reports/spamassassin-scores.ts) and by `npm run check:spam`. Debian's `spamassassin`
// package installs the rules in /usr/share/spamassassin; SPAMASSASSIN_RULES_DIR points elsewhere.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const RULES_DIR = process.env.SPAMASSASSIN_RULES_DIR || '/usr/share/spamassassin';
const MODULE = '/usr/share/perl5/Mail/SpamAssassin.pm';

/** The rule files in the order SpamAssassin reads them (lexical), later `score` lines overriding earlier ones. */
function ruleFiles(dir = RULES_DIR) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.cf'))
    .sort()
    .map((name) => path.join(dir, name));
}

/**
 * Map of rule name to { scores: [set0, set1, set2, set3], describe, file (of the score), type (body, header, meta …), definedIn }. A `score` line with one value
 * applies to all four sets. Language-specific descriptions (`lang xx describe`) are skipped.
 */
function readRules(dir = RULES_DIR) {
  const rules = new Map();
  const entry = (name) => {
    if (!rules.has(name)) rules.set(name, { scores: null, describe: null, file: null, type: null, definedIn: null });
    return rules.get(name);
  };
  for (const file of ruleFiles(dir)) {
    const text = fs.readFileSync(file, 'latin1');
    for (const raw of text.split('\n')) {
      const line = raw.replace(/#.*$/, '').trim();
      let match = /^score\s+(\S+)\s+([-\d.]+)(?:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+))?/.exec(line);
      if (match) {
        const values = match
          .slice(2)
          .filter((value) => value !== undefined)
          .map(Number);
        entry(match[1]).scores = values.length === 1 ? [values[0], values[0], values[0], values[0]] : values;
        entry(match[1]).file = path.basename(file);
        continue;
      }
      match = /^describe\s+(\S+)\s+(.+)$/.exec(line);
      if (match) {
        entry(match[1]).describe = match[2].trim();
        continue;
      }
      match = /^(body|rawbody|header|uri|meta|full|mimeheader)\s+(\S+)\s/.exec(line);
      if (match && !entry(match[2]).type) Object.assign(entry(match[2]), { type: match[1], definedIn: path.basename(file) });
    }
  }
  return rules;
}

/** The installed SpamAssassin version ("4.0.1"), or null when SpamAssassin is not installed. */
function installedVersion() {
  if (!fs.existsSync(MODULE)) return null;
  const match = /\$VERSION\s*=\s*"(\d+)\.(\d{3})(\d{3})"/.exec(fs.readFileSync(MODULE, 'utf8'));
  return match ? `${Number(match[1])}.${Number(match[2])}.${Number(match[3])}` : null;
}

module.exports = { RULES_DIR, readRules, installedVersion };
