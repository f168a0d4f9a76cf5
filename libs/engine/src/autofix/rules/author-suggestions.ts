import type { FixRefusal, FixRule, FixRuleContext } from '../fix-model';

/** Suggestions from the accessibility findings of the email as submitted: words only the author can choose. */
function suggestFor(context: FixRuleContext, rule: string, findingRules: Record<string, string>): FixRefusal[] {
  return context.before.findings
    .filter((finding) => finding.report === 'accessibility' && findingRules[finding.rule] !== undefined)
    .map((finding) => ({ rule, line: finding.line ?? 0, reason: findingRules[finding.rule] }));
}

/** The `lang` value is never guessed: a wrong one makes screen readers read every word in the wrong voice. */
export const documentLanguage: FixRule = {
  id: 'document-language',
  tier: 'safe',
  resolves: [],
  find(context) {
    return {
      candidates: [],
      refusals: suggestFor(context, this.id, {
        'missing-lang':
          'suggestion only: set lang on <html> to the language the email is written in (lang="en", lang="de-CH"); a guessed value would mislead screen readers',
        'invalid-lang': 'suggestion only: write lang as a language tag such as "en" or "en-GB"; which language it is, only the author knows',
      }),
    };
  },
};

/** Link text is never rewritten: what a link should say depends on where it goes and why. */
export const linkText: FixRule = {
  id: 'link-text',
  tier: 'safe',
  resolves: [],
  find(context) {
    return {
      candidates: [],
      refusals: suggestFor(context, this.id, {
        'link-generic-text': 'suggestion only: write link text that says where the link goes ("View your order", not "Click here")',
        'link-no-accessible-name': 'suggestion only: give the link text, an aria-label or an image alt that says where it goes',
      }),
    };
  },
};
