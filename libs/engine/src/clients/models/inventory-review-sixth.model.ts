import type { ClientId } from '../email-client';
import type { ClientBehavior, RewriteBehavior } from './client-behavior';

/**
 * Behaviours of the review of the sixth pass (docs/clients.md, "Review of the email-bugs sweep"): rows the inventory held
 * as disputed that a source re-read settles and an existing hook expresses. Each reads only what carries its
 * feature, so an email without it costs nothing more. Facts come from the sources cited; fixtures are our own.
 * Appended to each family's model by client-models.ts, after inventory-sixth-pass-bugs.model.ts.
 */

// ----- Yahoo and AOL: `!important` without a space on a background -----

/** `!important` written right after the value, with no space (`green!important`). */
const IMPORTANT_WITHOUT_SPACE = /\S!\s*important\s*$/i;

/**
 * Yahoo drops the `!important` of a `background` or `background-image` declaration of a `<style>` block written
 * without a space before it (caniemail css-important note 7; email-bugs #16). The declaration stays, as a normal one,
 * so a rule it had to win over wins. The mirror of the `display` rule of the same thread, where the spaced spelling
 * loses its `!important` (yahoo-spaced-important-display).
 */
const yahooBackgroundImportantWithoutSpace: RewriteBehavior = {
  id: 'yahoo-background-important-without-space',
  kind: 'rewrite',
  severity: 'warning',
  label: 'background with "!important" and no space',
  summary:
    'Yahoo drops !important from a background or background-image declaration in <style> written without a space before it (green!important): the declaration loses to the rules it had to win over.',
  evidence: [
    {
      url: 'https://www.caniemail.com/features/css-important/',
      title: 'caniemail: !important (Yahoo and AOL, webmail, iOS and Android, 2021-11: note 7)',
      date: '2021-11-30',
      note: 'Note 7: "Removed if there is no space before when used with a background-image property". caniemail\'s test (tests/css-important.html, unchanged since 2021-11-30) writes .test5 { background:green!important } in <style> over an inline background:red, so the shorthand is covered too. "Removed" is read as the !important removed, not the declaration: the feature is !important, and note 3 says "the entire declaration is removed" where that is what happens; the test paints red either way. Inline declarations are not tested and are left as written.',
    },
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/16',
      title: 'email-bugs #16: Yahoo removes !important with a space before for the display property (open)',
      date: '2019-02-18',
      note: 'A 2019 comment by the maintainer: "this also applies to the background and background-image properties", with a <style> test of both spellings (url(…) !important and url(…)!important); the copy we read cuts Yahoo\'s output short, and caniemail\'s note, written from the same thread, names the spelling without a space.',
    },
  ],
  properties: ['background', 'background-image'],
  importantOnly: true,
  rewrite: (d, site) =>
    !site.inline && d.important && site.raw !== undefined && IMPORTANT_WITHOUT_SPACE.test(site.raw) ? { ...d, important: false } : undefined,
  suggestion: 'Write a space before !important on background and background-image for Yahoo and AOL (background:green !important).',
  fixture: {
    html: '<html><head><style>.hero{background:#008000!important}</style></head><body><div class="hero" style="background:#ff0000">Sale</div></body></html>',
    expect: {
      transformIncludes: ['background:#008000;}'],
      transformExcludes: ['#008000!important', '#008000 !important'],
      finding: { rule: 'yahoo-background-important-without-space' },
    },
  },
  // With a space, the !important stays; other properties without a space are left as written.
  counterFixture: {
    html: '<html><head><style>.hero{background:#008000 !important;color:#ffffff!important}</style></head><body><div class="hero" style="background:#ff0000">Sale</div></body></html>',
    expect: {
      transformIncludes: ['background:#008000 !important', 'color:#ffffff !important'],
      noFindingFor: 'background with "!important" and no space',
    },
  },
};

export const REVIEW_SIXTH_BEHAVIORS: Partial<Record<ClientId, readonly ClientBehavior[]>> = {
  'yahoo-mail': [yahooBackgroundImportantWithoutSpace],
  'yahoo-mail-ios': [yahooBackgroundImportantWithoutSpace],
  'yahoo-mail-android': [yahooBackgroundImportantWithoutSpace],
  aol: [yahooBackgroundImportantWithoutSpace],
};
