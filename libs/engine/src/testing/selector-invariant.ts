import type { Rule } from 'postcss';
import { parse, serialize } from 'parse5';
import { analyzeEmail } from '../analyze-email';
import { HtmlElement, HtmlNode, childrenOf, getAttribute, isElement } from '../parse/dom';
import { matchesSelector, parseSelector, splitSelectorList } from '../parse/css-selector';
import { ParsedEmail, parseEmail } from '../parse/parse-email';
import { prefixSelector } from '../transforms/selector-prefix';
import type { ClientId } from '../clients/email-client';
import { CLIENT_IDS } from '../clients/email-client';
import { rulesOf } from '../clients/models/client-rules';

/**
 * The selector invariant (docs/clients.md, "Invariants"): a selector the client rewrites (prefixes, scopes,
 * chains cut short) matches, in the client's markup, exactly the elements it matched in the email, unless
 * the client drops the rule or one of its behaviors documents the limit (`selectorLimit`, Word's first class, an unwrapped ancestor,
 * a body wrapper that breaks `body >`). Elements are told apart by a numbering attribute added to the
 * body's descendants before the analysis.
 */
export const ELEMENT_KEY = 'data-fidelity-key';

export interface SelectorViolation {
  client: ClientId;
  selector: string;
  rewritten: string;
  /** Element numbers the selector matched in the email (those the client kept). */
  expected: number[];
  /** Element numbers the rewritten selector matches in the client's markup. */
  actual: number[];
}

export interface SelectorInvariantResult {
  /** Selectors compared per client (kept by the client, no documented limit). */
  checked: number;
  /** Selectors a behavior documents as matching differently. */
  limited: number;
  /** Rules the client drops (caniemail, a poisoned block, a rewrite to nothing). */
  dropped: number;
  violations: SelectorViolation[];
}

const GMAIL: ReadonlySet<ClientId> = new Set(['gmail-web', 'gmail-android', 'gmail-ios']);

/** The email with every descendant of `<body>` numbered in document order. */
export function numberElements(html: string): string {
  const document = parse(html);
  let next = 0;
  const visit = (node: HtmlNode, inBody: boolean): void => {
    if (isElement(node)) {
      if (inBody) node.attrs.push({ name: ELEMENT_KEY, value: String(next++) });
      inBody ||= node.tagName === 'body';
    }
    if ('childNodes' in node) for (const child of childrenOf(node as Parameters<typeof childrenOf>[0])) visit(child as HtmlNode, inBody);
  };
  visit(document, false);
  return serialize(document);
}

function keyedElements(parsed: ParsedEmail): HtmlElement[] {
  return parsed.elements.filter((element) => getAttribute(element, ELEMENT_KEY) !== undefined);
}

function matchedKeys(parsed: ParsedEmail, elements: readonly HtmlElement[], selector: string): number[] | undefined {
  const compiled = parseSelector(selector);
  if (!compiled.matchable) return undefined;
  return elements.filter((element) => matchesSelector(element, compiled, parsed.matchContext)).map((element) => Number(getAttribute(element, ELEMENT_KEY)));
}

/** Style rules outside other style rules (top-level or in at-rules), with whether they are top-level. */
function styleRules(parsed: ParsedEmail): Array<{ rule: Rule; topLevel: boolean }> {
  const rules: Array<{ rule: Rule; topLevel: boolean }> = [];
  for (const sheet of parsed.styleSheets) {
    sheet.root.walkRules((rule) => {
      if (rule.parent?.type === 'rule') return;
      if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as { name: string }).name)) return;
      rules.push({ rule, topLevel: rule.parent?.type === 'root' });
    });
  }
  return rules;
}

const normalize = (selector: string): string => selector.replace(/\s+/g, '');

/** Checks the invariant for one email (any markup) and the given clients. */
export function checkSelectorInvariant(html: string, clients: readonly ClientId[] = CLIENT_IDS): SelectorInvariantResult {
  const numbered = numberElements(html);
  const original = parseEmail(numbered);
  const originalElements = keyedElements(original);
  const analysis = analyzeEmail(numbered, { clients, reports: false });
  const result: SelectorInvariantResult = { checked: 0, limited: 0, dropped: 0, violations: [] };
  const rules = styleRules(original);
  // Class names that are not the first of their attribute: Word reads none of them.
  const laterClasses = new Set<string>();
  for (const element of originalElements) for (const name of (getAttribute(element, 'class') ?? '').trim().split(/\s+/).slice(1)) laterClasses.add(name);
  const mentionsLaterClass = (selector: string): boolean => [...selector.matchAll(/\.(-?[_a-zA-Z][-\w]*)/g)].some((m) => laterClasses.has(m[1]));
  clients.forEach((client, index) => {
    const rewrittenEmail = parseEmail(analysis.transforms[index].html);
    const rewrittenElements = keyedElements(rewrittenEmail);
    const present = new Set(rewrittenElements.map((element) => Number(getAttribute(element, ELEMENT_KEY))));
    const written = new Set(styleRules(rewrittenEmail).map(({ rule }) => normalize(rule.selector)));
    const clientRules = rulesOf(client);
    const prefix = clientRules.prefix;
    const wrappers = clientRules.additions.filter((addition) => addition.wrapsBody);
    const wrapperBreaksChildren = wrappers.length > 0;
    // Rules that target the wrapper's own classes (MJML's .moz-text-html for Thunderbird) match only in the client: intended.
    const wrapperClasses = wrappers.flatMap((addition) => [...(addition.wrapsBody?.open.matchAll(/class="([^"]*)"/g) ?? [])].flatMap((m) => m[1].split(/\s+/)));
    const mentionsWrapper = (selector: string): boolean => wrapperClasses.some((name) => selector.includes(`.${name}`));
    // A rule whose element loses its class or id to a documented attribute drop (Yahoo's class on <img>).
    const nameDroppers = clientRules.rewrites.filter((rule) => rule.dropsAttributes);
    const dropsNames = (element: HtmlElement): boolean =>
      nameDroppers.some(
        (rule) => rule.dropsAttributesOn?.includes(element.tagName) && rule.dropsAttributes?.(element).some((name) => name === 'class' || name === 'id'),
      );
    // An element inside one the client unwraps (Outlook.com's links without a URL): combinators through the
    // unwrapped element no longer hold, as documented by the sanitize behaviour.
    const insideUnwrapped = (element: HtmlElement): boolean => {
      for (let node = element.parentNode; node && isElement(node); node = node.parentNode) {
        const key = getAttribute(node, ELEMENT_KEY);
        if (key !== undefined && !present.has(Number(key)) && clientRules.unwraps.has(node.tagName)) return true;
      }
      return false;
    };
    const rewrite = (selector: string): string => {
      if (!prefix || (!prefix.classPrefix && !prefix.idPrefix && !prefix.rewriteSelector)) return selector;
      const prefixed = prefixSelector(selector, prefix.classPrefix, prefix.idPrefix);
      return prefix.rewriteSelector ? (prefix.rewriteSelector(prefixed) ?? '') : prefixed;
    };
    for (const { rule, topLevel } of rules) {
      // Gmail inlines its top-level rules (the cascade decides, not the selector): only the rules it keeps are compared.
      if (GMAIL.has(client) && topLevel) continue;
      if (!written.has(normalize(rewrite(rule.selector)))) {
        result.dropped++;
        continue;
      }
      for (const selector of splitSelectorList(rule.selector)) {
        const expected = matchedKeys(original, originalElements, selector)?.filter((key) => present.has(key));
        if (!expected) continue;
        const limited =
          prefix?.selectorLimit?.(selector) !== undefined ||
          (wrapperBreaksChildren && /\bbody\s*>/i.test(selector)) ||
          mentionsWrapper(selector) ||
          (prefix?.firstClassOnly === true && mentionsLaterClass(selector)) ||
          expected.some((key) => dropsNames(originalElements[key]) || insideUnwrapped(originalElements[key]));
        if (limited) {
          result.limited++;
          continue;
        }
        const rewritten = rewrite(selector);
        // One selector of a list the client's rewrite drops on its own (Gmail's or Yahoo's attribute selectors) is dropped, not compared.
        if (!rewritten && prefix?.rewriteSelector) {
          result.dropped++;
          continue;
        }
        const actual = rewritten ? (matchedKeys(rewrittenEmail, rewrittenElements, rewritten) ?? []) : [];
        result.checked++;
        if (actual.length !== expected.length || actual.some((key, i) => key !== expected[i]))
          result.violations.push({ client, selector, rewritten, expected, actual });
      }
    }
  });
  return result;
}
