import type { ChildNode } from 'postcss';
import type { ClientId, DarkModeBehavior } from '../email-client';
import type { HtmlElement, HtmlText } from '../../parse/dom';
import type { CssDeclaration } from '../../parse/css-syntax';
import type { EmailStyleSheet, ParsedEmail } from '../../parse/parse-email';
import type { Severity } from '../severity';

/**
 * One documented behavior of a client: what it does to an email, where that is documented, and a
 * fixture of our own that shows it. A client's model (client-models.ts) is a list of these; the
 * transform, the findings and the dark variant read them, and `npm run check:fidelity` checks each
 * fixture (docs/clients.md).
 */
export type BehaviorKind = 'sanitize' | 'drop-block' | 'rewrite' | 'prefix' | 'element' | 'dark' | 'addition';

/** Where a behavior is documented. `date` is the source's own date (or last update), ISO `YYYY-MM` or `YYYY-MM-DD`. */
export interface Evidence {
  url: string;
  title: string;
  date: string;
  /** Old, disputed, or only partly covering the behavior: said here. */
  note?: string;
}

/** What a fixture must show for the behavior to count as modeled (each listed check must hold). */
export interface FixtureExpectation {
  /** Strings the client's rewritten markup (transforms[].html) contains / does not contain. */
  transformIncludes?: readonly string[];
  transformExcludes?: readonly string[];
  /** Strings the client's dark variant contains / does not contain. */
  darkIncludes?: readonly string[];
  darkExcludes?: readonly string[];
  /** A cssReport finding of this rule id exists for the client (optionally with this severity). */
  finding?: { rule: string; severity?: Severity };
  /** No cssReport finding for the client names this property label. */
  noFindingFor?: string;
}

/** A small hand-written email (never a corpus file) that shows the behavior. */
export interface BehaviorFixture {
  html: string;
  expect: FixtureExpectation;
}

interface BehaviorBase {
  /** Stable id, also the rule id of the findings it gives: `gmail-style-size-limit`. */
  id: string;
  kind: BehaviorKind;
  /** What the client does, in one sentence. */
  summary: string;
  evidence: readonly Evidence[];
  fixture: BehaviorFixture;
  /** A case where the behavior must not fire (a property used where it works). */
  counterFixture?: BehaviorFixture;
  /** Set when the behavior is documented but not the one shown by default (Thunderbird's dark reader). */
  alternative?: true;
}

/** The facts about one `<style>` block a drop-block rule may read. */
export interface SheetFacts {
  sheet: EmailStyleSheet;
  /** The block sits inside `<body>` (or after it). */
  inBody: boolean;
  /** UTF-8 bytes of all the email's `<style>` blocks. */
  totalStyleBytes: number;
  parsed: ParsedEmail;
}

/** A construct that poisons a block: the node it starts at (absent: the block as a whole) and what it is. */
export interface Poison {
  node?: ChildNode;
  label: string;
}

/**
 * The client drops a whole `<style>` block (`scope: 'block'`) or everything from the offending construct
 * to the block's end (`scope: 'rest'`) when `find` returns a poison.
 */
export interface DropBlockBehavior extends BehaviorBase {
  kind: 'drop-block';
  scope: 'block' | 'rest';
  severity: Severity;
  find(facts: SheetFacts): Poison | undefined;
  suggestion: string;
}

/** A declaration as a rewrite rule sees and returns it. */
export interface Decl {
  property: string;
  value: string;
  important: boolean;
  /**
   * Declarations the client writes right after this one (a rewrite's result only): what it adds on a condition
   * (Apple's `word-break: break-all` beside `width: min-content`).
   */
  alongside?: readonly Decl[];
}

/**
 * Where a rewrite reads a declaration. Rewrites are computed once per distinct declaration (equal `style`
 * attributes share theirs), so they may depend on where it is written, never on which element holds it.
 */
export interface DeclarationSite {
  /** In a `style` attribute (true) or a `<style>` block (false; Gmail's inlined rules count as these). */
  inline: boolean;
  /** The declaration's text as written, for an `!important` one (rules that depend on its spelling). */
  raw?: string;
}

/**
 * The client changes a declaration instead of keeping it: `undefined` leaves it, `null` drops it, a
 * declaration replaces it. `styleAttribute` may empty a whole `style` attribute (its raw text).
 */
export interface RewriteBehavior extends BehaviorBase {
  kind: 'rewrite';
  rewrite?(declaration: Decl, site: DeclarationSite): Decl | null | undefined;
  /**
   * The properties `rewrite` can change (lower-case; a name ending in `*` is a prefix, `--*` every custom
   * property): other declarations never reach it. Absent: every declaration is offered.
   */
  properties?: readonly string[];
  /** `rewrite` changes `!important` declarations only. */
  importantOnly?: true;
  /** `rewrite` changes declarations whose value matches (a cheap narrowing, tested once per declaration). */
  valueMatches?: RegExp;
  /** True: the client removes the whole `style` attribute with this text. */
  dropsStyleAttribute?(raw: string): boolean;
  /**
   * The prelude the client writes for an at-rule (`@media` conditions it neutralises): undefined keeps it
   * as caniemail decides, null removes the at-rule with its rules, the same `params` keeps it over
   * caniemail's "unsupported" (a documented correction: no finding). `nested` is true inside a style rule
   * (CSS nesting); `parentAtRule` names the nearest enclosing at-rule (`media` for an @media inside @media).
   */
  rewriteAtRule?(name: string, params: string, nested: boolean, parentAtRule: string | undefined): string | null | undefined;
  /** Attributes the client removes from an element (Yahoo's `class` on `<img>`), read on the tags of `dropsAttributesOn`. */
  dropsAttributes?(element: HtmlElement): readonly string[];
  dropsAttributesOn?: readonly string[];
  /**
   * The markup the client writes for an HTML comment, from the comment's text (what lies between `<!--` and
   * `-->`): undefined keeps the comment (Yahoo ends a comment at its first `->`, the rest becomes markup).
   */
  rewriteComment?(text: string): string | undefined;
  /** A declaration inside the email's own dark rules, as the client applies it in dark mode (Apple ignores pure white). */
  rewriteInDarkRules?(declaration: Decl): Decl | null | undefined;
  /** The finding's property label for a declaration this rule changes. */
  label: string;
  severity: Severity;
  suggestion: string;
}

/** Class and id names rewritten by the client, and selectors with them. */
export interface PrefixBehavior extends BehaviorBase {
  kind: 'prefix';
  /** Added in front of every class name in `class` attributes and selectors. */
  classPrefix?: string;
  /** Added in front of every id in `id` attributes and selectors. */
  idPrefix?: string;
  /** A selector as the client writes it in its `<style>` (after prefixing); null drops the rule. */
  rewriteSelector?(selector: string): string | null;
  /** Only the first name of a `class` attribute counts (Word). */
  firstClassOnly?: true;
  /**
   * The element the client wraps the message's content in, which its scoped selectors need (Yahoo's
   * `<div id="yiv…">` for `#yiv… .x`): the rewritten markup carries it inside `<body>`.
   */
  scopeWrapper?: { open: string; close: string };
  /**
   * The documented limit of the rewrite: why an original selector (one of a list) matches other elements
   * once the client has rewritten it (a chain Outlook.com prefixes half of, a `body` compound under Yahoo's
   * scope), or undefined when it must match exactly what it matched before (the invariant in docs/clients.md).
   */
  selectorLimit?(selector: string): string | undefined;
  /**
   * The client removes the selector of a style rule nested in another (CSS nesting): its declarations join the
   * parent rule and apply to the parent's elements (Yahoo).
   */
  flattensNestedRules?: true;
}

/**
 * A property the client honors on some elements only (Word's `padding` on `<td>`, not on `<p>`): either
 * the elements it works on (`honoredOn`) or the ones it is ignored on (`ignoredOn`).
 */
export interface ElementBehavior extends BehaviorBase {
  kind: 'element';
  properties: readonly string[];
  honoredOn?: ReadonlySet<string>;
  ignoredOn?: ReadonlySet<string>;
  /**
   * The rule reads only the values this matches (Word ignores display:none on <img>, not every display);
   * absent: every value. caniemail's finding for the property then stays (the rule governs those values only).
   */
  valueMatches?: RegExp;
  /** What the client paints instead where the rule applies (a collapsed table row painted as hidden); absent: the declaration is dropped. */
  becomes?: string;
  /**
   * The rule applies only to the elements this accepts (the Word engine shows the tables inside an element with
   * display:none): read after the tag and the value, so only elements that carry the property pay for it.
   * A rule without `honoredOn` and `ignoredOn` reads every tag.
   */
  when?(element: HtmlElement, parsed: ParsedEmail): boolean;
  /**
   * The markup keeps the declaration: the client paints it differently in a way no CSS in Chromium shows (Word
   * shares a row's vertical padding), so the rule only reports it. Absent: dropped or painted as `becomes`.
   */
  keeps?: true;
  suggestion: string;
}

/** Whether an element rule makes the client ignore its property (with this value) on this tag. */
export function ignoredOnElement(behavior: ElementBehavior, tag: string, value: string): boolean {
  if (behavior.valueMatches && !behavior.valueMatches.test(value.trim())) return false;
  if (behavior.ignoredOn) return behavior.ignoredOn.has(tag);
  return behavior.honoredOn ? !behavior.honoredOn.has(tag) : true;
}

/**
 * The element rule of a property that applies to this element and value: the first of the client's rules on the
 * property (in model order) whose tags, values and condition accept it; undefined when the client paints it as written.
 */
export function elementRuleOn(
  rules: readonly ElementBehavior[] | undefined,
  element: HtmlElement,
  value: string,
  parsed: ParsedEmail,
): ElementBehavior | undefined {
  if (!rules) return undefined;
  for (const rule of rules) if (ignoredOnElement(rule, element.tagName, value) && (!rule.when || rule.when(element, parsed))) return rule;
  return undefined;
}

/** Elements (and attributes) the client's sanitizer removes, and caniemail results it corrects. */
export interface SanitizeBehavior extends BehaviorBase {
  kind: 'sanitize';
  /** Tags removed with their content. */
  removesElements?: ReadonlySet<string>;
  /** Tags whose start and end tags go, their content staying. */
  unwrapsElements?: ReadonlySet<string>;
  /**
   * Only the elements of `removesElements` / `unwrapsElements` this accepts are removed or unwrapped (Outlook.com's
   * links without a URL, Apple's <svg> on a body without a background); absent: all.
   */
  sanitizesWhen?(element: HtmlElement, parsed: ParsedEmail): boolean;
  /**
   * The client shows the message only up to this many bytes (UTF-8) of its HTML and hides what starts after
   * the cut behind `clipNotice` (Gmail's "[Message clipped]"): elements, text and comments that start past it go.
   */
  clipsAfterBytes?: number;
  /** The markup the client writes at the end of a clipped message. */
  clipNotice?: string;
  /** Text the client prints where an unwrapped element's start tag was (Outlook.com's `[href]`), as HTML; undefined: none. */
  unwrappedText?(element: HtmlElement): string | undefined;
  /**
   * Markup the client writes in front of an element of these tags (the Word engine closes an `<ol>` before an
   * `<li value>` and opens a new one): `before` returns it, or undefined to leave the element alone. `after`, read only
   * where `before` wrote something, is the markup written after the element's end tag (HEY's `<details>` around a
   * `<blockquote>` is closed there).
   */
  writesBefore?: { on: readonly string[]; before(element: HtmlElement): string | undefined; after?: string };
  /**
   * The base URL the client resolves the email's relative links, images and backgrounds against, writing them
   * absolute (Yahoo: the last `<base>` in `<body>`); undefined leaves them as a browser reads them.
   */
  resolvesUrlsAgainst?(parsed: ParsedEmail): string | undefined;
  /**
   * caniemail features this behavior shows to work differently: the level the evidence gives. Kept to a
   * minimum (caniemail stays the default); each one is a documented disagreement (docs/clients.md).
   */
  supportOverrides?: Readonly<Record<string, 'supported' | 'unsupported'>>;
  severity: Severity;
  suggestion: string;
}

/** How a client paints an email in dark mode. */
export interface DarkBehavior extends BehaviorBase {
  kind: 'dark';
  model: DarkModeBehavior;
  /** The email's dark rules apply only when it opts in with `color-scheme` (Apple Mail). */
  requiresColorSchemeOptIn?: true;
}

/** Markup the client adds to the email (Apple's data detectors). */
export interface AdditionBehavior extends BehaviorBase {
  kind: 'addition';
  /** Whether the email turns the addition off. */
  disabledBy(parsed: ParsedEmail): boolean;
  /** Whether the email neutralises how the addition looks (it still happens). */
  restyledBy(parsed: ParsedEmail): boolean;
  /** Text replacement: `text` (the value of `node`) with the additions made, or undefined when nothing matches. */
  addTo?(text: string, parsed: ParsedEmail, node?: HtmlText): { text: string; count: number } | undefined;
  /** An element the client wraps the body's content in (Thunderbird's `moz-text-html` div). */
  wrapsBody?: { open: string; close: string };
  /**
   * Attributes the client sets on every element of these tags (HEY's `loading="lazy"` on images), replacing
   * the email's own value of that attribute.
   */
  addsAttributes?: { on: readonly string[]; attributes: readonly { name: string; value: string }[] };
  /**
   * Declarations the client forces on every element of these tags (Outlook for Mac's `table-layout: fixed`),
   * written as the client's own `<style>` rule first in `<head>` (with their `!important`, they win over the email's).
   */
  addsDeclarations?: { on: readonly string[]; declarations: readonly Decl[] };
  /**
   * For forced `!important` declarations: whether they change how this element paints, given its own inline
   * declarations (the finding is given only then; the markup changes on every element of the tags either way).
   * Absent: wherever the element's own declaration of the property, not `!important`, has another value.
   */
  changesElement?(element: HtmlElement, own: readonly CssDeclaration[]): boolean;
  /** For a wrapper: whether the email has rules it breaks (a finding is given only then). */
  breaksRules?(parsed: ParsedEmail): boolean;
  severity: Severity;
  suggestion: string;
}

export type ClientBehavior = SanitizeBehavior | DropBlockBehavior | RewriteBehavior | PrefixBehavior | ElementBehavior | DarkBehavior | AdditionBehavior;

export type RenderingEngine = 'WebKit' | 'Blink' | 'Word' | 'Gecko';

/** A client's model: its rendering engine, its dark model, when it was checked, and its behaviors. */
export interface ClientModel {
  client: ClientId;
  /**
   * The engine that paints the email: `WebKit`, `Blink`, `Word` or `Gecko`. A webmail paints in the reader's
   * browser: Blink, the most common, which Mailproof's screenshots use too.
   */
  engine: RenderingEngine;
  /** The date the model was last checked against its sources (ISO). */
  checkedAt: string;
  behaviors: readonly ClientBehavior[];
}
