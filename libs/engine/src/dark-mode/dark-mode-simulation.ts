import type { AtRule, ChildNode, Declaration, Rule } from 'postcss';
import { isDarkSchemeQuery } from '../analysis/collect-features';
import { SelectorCache } from '../analysis/style-cascade';
import { CLIENT_IDS, ClientId, DarkModeBehavior, EmailClient } from '../clients/email-client';
import { getClient } from '../clients/email-clients';
import { matchesSelector } from '../parse/css-selector';
import { CssDeclaration, serializeDeclarations } from '../parse/css-syntax';
import { HtmlElement, getAttribute, positionOf } from '../parse/dom';
import { ClientView, SheetWriteExtras, TransformContext, TransformWarning, sameItems } from '../transforms/client-transform';
import { AttributeValue, RenderPlan, layerPlan, serializeStartTag } from '../transforms/render-template';
import { COLOR_ATTRIBUTES, COLOR_TOKEN, ColorInverter, DARK_READER, colorRoleOf, readerBrightness, readerContrast, relativeLuminance } from './color-inversion';

/**
 * How a dark variant paints colors, handed to the dark-contrast report so that it never re-parses the
 * variant's HTML: the report re-runs the email's color cascade with the client's drops and this recoloring.
 */
export interface DarkColorHandover {
  client: ClientId;
  /** `none`: the email keeps its colors; `dark-media`: its prefers-color-scheme dark rules apply; else colors are inverted. */
  mode: 'none' | 'dark-media' | 'full-inversion' | 'partial-inversion' | 'color-removal';
  /** Recolors CSS color values as the client does (memoised); null when nothing is recolored. */
  inverter: ColorInverter | null;
  /** The client inlines top-level `<style>` rules into style attributes (Gmail). */
  inlinesRules: boolean;
  /** The client's dark-mode defaults: behind a body without a background of its own, for uncolored text and links. */
  canvas: { background: string; text: string; link: string } | null;
  /** Elements Outlook.com marks as recolored (data-ogsc: text, data-ogsb: background); null for other clients. */
  markers: { foreground: Set<HtmlElement>; background: Set<HtmlElement> } | null;
}

export interface DarkModeVariant {
  plan: RenderPlan;
  warnings: TransformWarning[];
  /** True when the dark variant renders exactly like the light transform. */
  sameAsTransform: boolean;
  colors: DarkColorHandover;
}

type Decl = Pick<CssDeclaration, 'property' | 'value' | 'important'>;

/** The clients' dark-mode defaults: a near-black canvas, light grey text, light blue links (Gmail's #8ab4f8). */
const DARK_CANVAS = { background: '#1a1a1a', text: '#e0e0e0', link: '#8ab4f8' };
const IMAGE_AT_RISK = /\.(png|gif|svg|webp)(\?|#|$)/i;
const OUTLOOK_HINT_CLIENTS: ReadonlySet<ClientId> = new Set(['outlook-web', 'outlook-windows']);
/** The clients that mark what they recolor with data-ogsc/data-ogsb: Outlook.com and, in dark mode, the Outlook apps (caniemail's prefers-color-scheme note 3). */
const OUTLOOK_MARKER_CLIENTS: ReadonlySet<ClientId> = new Set([...OUTLOOK_HINT_CLIENTS, 'outlook-macos', 'outlook-ios', 'outlook-android']);

/** Shared per-email dark-mode facts (computed once for every client). */
export class DarkModeContext {
  readonly inverters = { full: new ColorInverter('full'), partial: new ColorInverter('partial'), removal: new ColorInverter('removal') };
  readonly riskyImages: HtmlElement[];
  readonly hasOutlookHints: boolean;
  readonly uncoveredLightBackgrounds: HtmlElement[];
  /** Elements with a color attribute (bgcolor, color, text, link...), found once for every client. */
  readonly withColorAttributes: ReadonlySet<HtmlElement>;
  /** Elements that can carry a color: style attributes, `<style>` matches, color attributes, body. */
  readonly colorCandidates: HtmlElement[];
  /** recolorElement's results per element (not the body), for the clients that share its inputs (about half of them do). */
  readonly recolorings = new Map<HtmlElement, Recoloring[]>();

  constructor(
    readonly transform: TransformContext,
    selectors: SelectorCache,
  ) {
    const { parsed, features } = transform;
    this.riskyImages = (parsed.elementsByTag.get('img') ?? []).filter((img) => IMAGE_AT_RISK.test(getAttribute(img, 'src') ?? ''));
    const body = parsed.elementsByTag.get('body')?.[0];
    this.withColorAttributes = new Set(parsed.elements.filter((e) => e.attrs.some((a) => COLOR_ATTRIBUTES.has(a.name))));
    this.colorCandidates = parsed.elements.filter(
      (e) => e === body || parsed.inlineStyles.has(e) || transform.cascade.matches.has(e) || this.withColorAttributes.has(e),
    );
    this.hasOutlookHints = parsed.styleSheets.some((sheet) => /\[data-og(sc|sb)\]/.test(sheet.text));
    const darkBackgroundSelectors = features.darkSchemeBlocks.flatMap((block) => {
      const selectorsOfBlock: ReturnType<SelectorCache['list']> = [];
      block.walkRules((rule: Rule) => {
        if (rule.nodes.some((d) => d.type === 'decl' && colorRoleOf(d.prop.toLowerCase()) === 'background'))
          selectorsOfBlock.push(...selectors.list(rule.selector));
      });
      return selectorsOfBlock;
    });
    this.uncoveredLightBackgrounds =
      features.darkSchemeBlocks.length === 0
        ? []
        : parsed.elements.filter((element) => {
            if (!hasLightBackground(element, transform)) return false;
            return !darkBackgroundSelectors.some((selector) => matchesSelector(element, selector, parsed.matchContext));
          });
  }
}

function hasLightBackground(element: HtmlElement, transform: TransformContext): boolean {
  const values: string[] = [];
  const bgcolor = getAttribute(element, 'bgcolor');
  if (bgcolor) values.push(bgcolor);
  for (const d of transform.parsed.inlineStyles.get(element)?.declarations ?? []) if (colorRoleOf(d.property) === 'background') values.push(d.value);
  return values.some((value) => value.split(/\s+/).some((token) => (relativeLuminance(token) ?? 0) > 0.85));
}

function effectiveBehavior(behavior: DarkModeBehavior, hasDarkQuery: boolean): DarkModeBehavior {
  if (behavior === 'partial-inversion-unless-dark-query') return hasDarkQuery ? 'prefers-color-scheme' : 'partial-inversion';
  return behavior;
}

function isDarkQueryNode(atRule: AtRule): boolean {
  return atRule.name.toLowerCase() === 'media' && isDarkSchemeQuery(atRule.params);
}

function insideDarkQuery(node: ChildNode): boolean {
  for (let parent = node.parent as ChildNode | undefined; parent; parent = parent.parent as ChildNode | undefined) {
    if (parent.type === 'atrule' && isDarkQueryNode(parent)) return true;
  }
  return false;
}

function isLightSchemeQuery(node: ChildNode): boolean {
  return node.type === 'atrule' && (node as AtRule).name.toLowerCase() === 'media' && /prefers-color-scheme\s*:\s*light/i.test((node as AtRule).params);
}

/** The dark-mode variant of one client's view, following the client's `darkMode` behavior (email-clients.ts). */
export function simulateDarkModeForClient(context: DarkModeContext, view: ClientView): DarkModeVariant {
  const client = getClient(view.client);
  const hasDarkQuery = context.transform.features.darkSchemeBlocks.length > 0;
  const behavior = effectiveBehavior(client.darkMode, hasDarkQuery);
  if (behavior === 'none') return keepEmailColors(view, client);
  if (behavior === 'prefers-color-scheme') return applyDarkRules(context, view, client);
  if (behavior === 'color-removal') return removeColors(context, view, client);
  return invertColors(context, view, client, behavior === 'full-inversion' ? 'full' : 'partial');
}

function addWarning(
  warnings: TransformWarning[],
  client: ClientId,
  severity: TransformWarning['severity'],
  property: string,
  message: string,
  element?: HtmlElement,
): void {
  const w: TransformWarning = { severity, client, property, message };
  const position = element ? positionOf(element) : undefined;
  if (position) {
    w.line = position.line;
    w.column = position.column;
  }
  warnings.push(w);
}

function colorHandover(
  view: ClientView,
  mode: DarkColorHandover['mode'],
  inverter: ColorInverter | null = null,
  markers: DarkColorHandover['markers'] = null,
  canvas: DarkColorHandover['canvas'] = DARK_CANVAS,
): DarkColorHandover {
  return {
    client: view.client,
    mode,
    inverter,
    inlinesRules: view.client.startsWith('gmail'),
    canvas: inverter ? canvas : null,
    markers,
  };
}

/** The email renders in dark mode exactly as in light mode. */
function unchangedVariant(view: ClientView, warnings: TransformWarning[]): DarkModeVariant {
  return { plan: view.plan, warnings, sameAsTransform: true, colors: colorHandover(view, 'none') };
}

/** `none`: the client darkens only its own interface. */
function keepEmailColors(view: ClientView, client: EmailClient): DarkModeVariant {
  const warnings: TransformWarning[] = [];
  addWarning(warnings, view.client, 'info', 'dark-mode', `${client.name} darkens only its own interface; the email keeps its colors.`);
  return unchangedVariant(view, warnings);
}

/** `prefers-color-scheme`: the client applies the email's own `@media (prefers-color-scheme: dark)` rules. */
function applyDarkRules(context: DarkModeContext, view: ClientView, client: EmailClient): DarkModeVariant {
  const { parsed, features } = context.transform;
  const warnings: TransformWarning[] = [];
  const requiresOptIn = view.behaviors.rules.dark?.requiresColorSchemeOptIn;
  if (features.darkSchemeBlocks.length === 0) {
    addWarning(
      warnings,
      view.client,
      'info',
      'dark-mode',
      `${client.name} applies the email's @media (prefers-color-scheme: dark) rules; this email has none, so it stays light.`,
    );
    return unchangedVariant(view, warnings);
  }
  if (requiresOptIn && !features.hasColorSchemeMeta) {
    addWarning(
      warnings,
      view.client,
      'warning',
      'color-scheme',
      `${client.name} applies the email's dark rules only when it opts in with color-scheme: add <meta name="color-scheme" content="light dark"> and :root { color-scheme: light dark; }. Without it the email stays light.`,
    );
    return unchangedVariant(view, warnings);
  }
  const plan = layerPlan(view.plan);
  const rewrite = darkRulesRewrite(view);
  for (const sheet of parsed.styleSheets) {
    const text = view.writeSheet(sheet, { skip: isLightSchemeQuery, unwrap: isDarkQueryNode, rewrite });
    if (text !== undefined && !plan.removed.has(sheet.element)) plan.styleTexts.set(sheet.element, text);
  }
  addWarning(
    warnings,
    view.client,
    'info',
    'dark-mode',
    `${client.name} applies the email's own dark rules (${features.darkSchemeBlocks.length} @media (prefers-color-scheme: dark) block(s)).`,
  );
  if (!features.hasColorSchemeMeta && !requiresOptIn) {
    addWarning(
      warnings,
      view.client,
      'warning',
      'color-scheme',
      `The email has dark rules but no <meta name="color-scheme" content="light dark"> (or :root { color-scheme }); ${client.name} may ignore them.`,
    );
  }
  reportUncovered(context, warnings, view.client);
  if (context.riskyImages.length > 0)
    addWarning(
      warnings,
      view.client,
      'info',
      'images',
      `${context.riskyImages.length} PNG/GIF/SVG/WebP image(s) may have transparent parts designed for a light background.`,
      context.riskyImages[0],
    );
  return { plan, warnings, sameAsTransform: false, colors: colorHandover(view, 'dark-media') };
}

/** The client's own rewrites of declarations inside the dark rules (none when it has none). */
function darkRulesRewrite(view: ClientView): SheetWriteExtras['rewrite'] {
  const darkRewrites = view.behaviors.rules.rewrites.filter((r) => r.rewriteInDarkRules);
  if (darkRewrites.length === 0) return undefined;
  return (d: Declaration) => {
    if (!insideDarkQuery(d)) return undefined;
    const declaration = { property: d.prop.toLowerCase(), value: d.value, important: d.important === true };
    for (const rule of darkRewrites) {
      const result = rule.rewriteInDarkRules?.(declaration);
      if (result !== undefined) return result;
    }
    return undefined;
  };
}

/** One client's color inversion: what recolorElement reads and writes, set up once per client. */
interface Inversion {
  context: DarkModeContext;
  view: ClientView;
  plan: RenderPlan;
  inverter: ColorInverter;
  body: HtmlElement | undefined;
  clientBit: number;
  /** Outlook.com's data-ogsc/data-ogsb marks, for the clients that add them; null for the others. */
  markers: DarkColorHandover['markers'];
}

/** `full-inversion` and `partial-inversion`: the client recolors the email's colors itself. */
function invertColors(context: DarkModeContext, view: ClientView, client: EmailClient, mode: 'full' | 'partial'): DarkModeVariant {
  const inverter = context.inverters[mode];
  const addHints = OUTLOOK_HINT_CLIENTS.has(view.client);
  const addMarkers = OUTLOOK_MARKER_CLIENTS.has(view.client);
  const inversion: Inversion = {
    context,
    view,
    plan: layerPlan(view.plan),
    inverter,
    body: context.transform.parsed.elementsByTag.get('body')?.[0],
    clientBit: 1 << CLIENT_IDS.indexOf(view.client),
    markers: addMarkers ? { foreground: new Set(), background: new Set() } : null,
  };
  let recolored = 0;
  for (const element of context.colorCandidates) if (recolorElement(inversion, element)) recolored++;
  recolorSheets(inversion);
  const warnings: TransformWarning[] = [];
  addWarning(
    warnings,
    view.client,
    'info',
    'dark-mode',
    `${client.name} ${mode === 'full' ? 'inverts every color (full inversion)' : 'darkens light backgrounds and lightens dark text (partial inversion)'}; ${recolored} element(s) recolored.`,
  );
  if (context.riskyImages.length > 0) {
    addWarning(
      warnings,
      view.client,
      'warning',
      'images',
      `${context.riskyImages.length} PNG/GIF/SVG/WebP image(s) may vanish or lose contrast on the inverted background (transparent dark logos and icons).`,
      context.riskyImages[0],
    );
  }
  if (addHints && !context.hasOutlookHints)
    addWarning(
      warnings,
      view.client,
      'info',
      '[data-ogsc]',
      `${client.name} ignores prefers-color-scheme; style its dark mode with [data-ogsc] (text) and [data-ogsb] (background) selectors.`,
    );
  if (client.id === 'outlook-windows-legacy')
    addWarning(
      warnings,
      view.client,
      'info',
      'dark-mode',
      `${client.name} gives the email no control over dark mode; only high-contrast color choices survive.`,
    );
  return {
    plan: inversion.plan,
    warnings,
    sameAsTransform: false,
    colors: colorHandover(view, mode === 'full' ? 'full-inversion' : 'partial-inversion', inverter, inversion.markers),
  };
}

/**
 * One element recolored by one inverter from one declaration list and attribute list (compared by identity:
 * the transforms share them between clients that write the same), with or without Outlook.com's marks.
 */
interface Recoloring {
  inverter: ColorInverter;
  declarations: readonly Decl[] | undefined;
  attributes: readonly AttributeValue[];
  marked: boolean;
  /** The recolored start tag; undefined when no color changed. */
  startTag: string | undefined;
  foreground: boolean;
  background: boolean;
}

/** An earlier client's recoloring of this element from the same inputs (outside the body, the result depends on nothing else). */
function recoloredBefore(
  inversion: Inversion,
  element: HtmlElement,
  declarations: readonly Decl[] | undefined,
  attributes: readonly AttributeValue[],
): Recoloring | undefined {
  const marked = inversion.markers !== null;
  for (const known of inversion.context.recolorings.get(element) ?? []) {
    if (known.inverter === inversion.inverter && known.attributes === attributes && known.marked === marked && sameItems(known.declarations, declarations))
      return known;
  }
  return undefined;
}

/** Recolors one element's style and color attributes into the plan's start tag; whether anything changed. */
function recolorElement(inversion: Inversion, element: HtmlElement): boolean {
  const { context, view, plan, body, markers } = inversion;
  if (plan.removed.has(element)) return false;
  const ownDeclarations: readonly Decl[] | undefined = view.styles.get(element) ?? context.transform.parsed.inlineStyles.get(element)?.declarations;
  const hasColorAttribute = context.withColorAttributes.has(element);
  if (!ownDeclarations && !hasColorAttribute && element !== body) return false;
  const attributes = view.attributesOf(element);
  // The body's recoloring also depends on the client's canvas rules; it is computed for each client.
  let recoloring = element === body ? undefined : recoloredBefore(inversion, element, ownDeclarations, attributes);
  if (!recoloring) {
    recoloring = {
      inverter: inversion.inverter,
      declarations: ownDeclarations,
      attributes,
      marked: markers !== null,
      ...recolorFrom(inversion, element, ownDeclarations, attributes),
    };
    if (element !== body) {
      let known = context.recolorings.get(element);
      if (!known) context.recolorings.set(element, (known = []));
      known.push(recoloring); // at most one per inverting client
    }
  }
  if (recoloring.startTag === undefined) return false;
  // Outlook.com marks what it recolored; an email's [data-ogsc]/[data-ogsb] rules then apply.
  if (markers && recoloring.foreground) markers.foreground.add(element);
  if (markers && recoloring.background) markers.background.add(element);
  plan.startTags.set(element, recoloring.startTag);
  return true;
}

/** The element's start tag with its colors recolored (undefined when none changes), and which colors changed. */
function recolorFrom(
  inversion: Inversion,
  element: HtmlElement,
  ownDeclarations: readonly Decl[] | undefined,
  original: readonly AttributeValue[],
): Pick<Recoloring, 'startTag' | 'foreground' | 'background'> {
  const { context, inverter, body, markers } = inversion;
  let changedForeground = false;
  let changedBackground = false;
  // Copied only once a value changes: most elements keep every color (a partial inversion leaves dark
  // backgrounds and light text alone), and this runs for every candidate element in every client.
  const own: readonly Decl[] = ownDeclarations ?? [];
  let recolored: Decl[] | undefined;
  for (let i = 0; i < own.length; i++) {
    const d = own[i];
    const role = colorRoleOf(d.property);
    if (!role) {
      recolored?.push(d);
      continue;
    }
    const value = inverter.color(d.value, role);
    if (value === d.value) {
      recolored?.push(d);
      continue;
    }
    if (role === 'background') changedBackground = true;
    else changedForeground = true;
    recolored ??= own.slice(0, i);
    recolored.push({ property: d.property, value, important: d.important });
  }
  let declarations: readonly Decl[] = recolored ?? own;
  let attrs: readonly AttributeValue[] = original;
  let copied: AttributeValue[] | undefined;
  for (let i = 0; i < original.length; i++) {
    const a = original[i];
    const role = a.prefix ? undefined : COLOR_ATTRIBUTES.get(a.name);
    if (!role) continue;
    const value = inverter.color(a.value, role);
    if (value === a.value) continue;
    if (role === 'background') changedBackground = true;
    else changedForeground = true;
    copied ??= original.slice();
    copied[i] = { ...a, value };
    attrs = copied;
  }
  if (element === body && !declarations.some((d) => colorRoleOf(d.property) === 'background') && !getAttribute(element, 'bgcolor')) {
    // The client paints its dark canvas behind an email that sets no background of its own.
    declarations = [
      { property: 'background-color', value: DARK_CANVAS.background, important: false },
      { property: 'color', value: DARK_CANVAS.text, important: false },
      ...declarations,
    ];
    changedBackground = true;
  } else if (element === body && !bodyDeclaresTextColor(context.transform, body, declarations, inversion.clientBit)) {
    // The email's own background is recolored, and text it never colored takes the client's dark-mode
    // default (the clients recolor computed colors, and undeclared text is computed black).
    declarations = [{ property: 'color', value: DARK_CANVAS.text, important: false }, ...declarations];
    changedForeground = true;
  }
  if (!changedBackground && !changedForeground) return NOT_RECOLORED;
  const withoutStyle = attrs.filter((a) => a.name !== 'style' || a.prefix);
  const styleIndex = attrs.findIndex((a) => a.name === 'style' && !a.prefix);
  if (declarations.length > 0)
    withoutStyle.splice(styleIndex >= 0 ? styleIndex : withoutStyle.length, 0, { name: 'style', value: serializeDeclarations(declarations) });
  if (markers && changedForeground) withoutStyle.push({ name: 'data-ogsc', value: '' });
  if (markers && changedBackground) withoutStyle.push({ name: 'data-ogsb', value: '' });
  return { startTag: serializeStartTag(element.tagName, withoutStyle), foreground: changedForeground, background: changedBackground };
}

const NOT_RECOLORED = { startTag: undefined, foreground: false, background: false } as const;

/** Recolors the client's own version of each `<style>` block (what survived its transform). */
function recolorSheets({ context, view, plan, inverter }: Inversion): void {
  for (const sheet of context.transform.parsed.styleSheets) {
    const text = view.writeSheet(sheet, {
      skip: (node) => node.type === 'comment',
      valueFor: (d: Declaration) => {
        const role = colorRoleOf(d.prop.toLowerCase());
        return role ? inverter.color(d.value, role) : d.value;
      },
    });
    if (text !== undefined && !plan.removed.has(sheet.element)) plan.styleTexts.set(sheet.element, text);
  }
}

/** Whether the body has a text color of its own for this client: inline, a `text` attribute, or a `<style>` rule it keeps. */
function bodyDeclaresTextColor(transform: TransformContext, body: HtmlElement, inline: readonly Decl[], clientBit: number): boolean {
  if (inline.some((d) => d.property === 'color') || getAttribute(body, 'text') !== undefined) return true;
  return (transform.cascade.matches.get(body) ?? []).some(
    (match) =>
      (transform.cssNodeMask(match.rule) & clientBit) === 0 &&
      match.declarations.some((d) => d.prop.toLowerCase() === 'color' && (transform.cssNodeMask(d) & clientBit) === 0),
  );
}

function reportUncovered(context: DarkModeContext, warnings: TransformWarning[], client: ClientId): void {
  const uncovered = context.uncoveredLightBackgrounds;
  if (uncovered.length === 0) return;
  const examples = uncovered
    .slice(0, 3)
    .map((el) => {
      const position = positionOf(el);
      return `<${el.tagName}>${position ? ` at line ${position.line}` : ''}`;
    })
    .join(', ');
  addWarning(
    warnings,
    client,
    'warning',
    'dark-mode-coverage',
    `${uncovered.length} element(s) keep a hard-coded light background that no dark rule overrides (${examples}).`,
    uncovered[0],
  );
}

/** The dark reader's page behind the email: its background and text (links keep the dark default). */
const READER_CANVAS = { background: DARK_READER.page, text: DARK_READER.text, link: DARK_CANVAS.link };
/** Attributes the dark reader removes from `<body>`, and from every other element it visits. */
const READER_BODY_ATTRIBUTES = new Set(['bgcolor', 'text', 'link', 'vlink']);
const READER_ELEMENT_ATTRIBUTES = new Set(['bgcolor', 'color']);

/**
 * The declarations the dark reader removes from one declaration block (an element's style, or one rule of a
 * `<style>` block): a text color it judges dark on a page without its own background, or a background too
 * bright or too close to its text, with the text color then judged again; gradients always go. Returns the
 * removed properties; for a `background` shorthand whose color alone goes, the value without it.
 */
export function readerRemovals(declarations: readonly Decl[]): Map<string, string | null> {
  const removals = new Map<string, string | null>();
  let color: Decl | undefined;
  let background: Decl | undefined;
  let backgroundColor: Decl | undefined;
  for (const d of declarations) {
    if (d.property === 'color') color = d;
    else if (d.property === 'background') background = d;
    else if (d.property === 'background-color') backgroundColor = d;
  }
  if (!color && !background && !backgroundColor) return removals;
  // An invalid or keyword text color counts as black (brightness 0), as in the reader.
  const textBrightness = color ? (readerBrightness(color.value) ?? 0) : 0;
  const removeDarkText = (): void => {
    if (color && textBrightness <= DARK_READER.threshold) removals.set('color', null);
  };
  const clears = (brightness: number): boolean =>
    brightness > DARK_READER.threshold || (color !== undefined && readerContrast(textBrightness, brightness) < DARK_READER.contrast);
  const shorthandColor = background ? backgroundColorToken(background.value) : undefined;
  const longhandBrightness = backgroundColor ? readerBrightness(backgroundColor.value) : undefined;
  const fillBrightness = longhandBrightness ?? (shorthandColor ? readerBrightness(shorthandColor) : undefined);
  if ((!background || background.value.trim().toLowerCase() === 'none') && longhandBrightness === undefined) {
    removeDarkText();
    return removals;
  }
  if (fillBrightness !== undefined && clears(fillBrightness)) {
    if (backgroundColor) removals.set('background-color', null);
    if (background && shorthandColor) {
      const rest = background.value.replace(shorthandColor, '').trim();
      removals.set('background', rest.length > 0 ? rest : null);
    }
    removeDarkText();
  }
  if (background && /gradient/i.test(background.value)) removals.set('background', null);
  return removals;
}

/** The color layer of a `background` shorthand (its first token that is a color), if any. */
function backgroundColorToken(value: string): string | undefined {
  // COLOR_TOKEN runs an unclosed function to the end of the value: one pass, never a rescan.
  for (const match of value.matchAll(COLOR_TOKEN)) {
    if (/^url\(/i.test(match[0])) continue;
    if (readerBrightness(match[0]) !== undefined) return match[0];
  }
  return undefined;
}

function applyRemovals(declarations: readonly Decl[], removals: ReadonlyMap<string, string | null>): Decl[] {
  const kept: Decl[] = [];
  for (const d of declarations) {
    if (!removals.has(d.property)) kept.push(d);
    else {
      const value = removals.get(d.property);
      if (value) kept.push({ property: d.property, value, important: d.important });
    }
  }
  return kept;
}

/**
 * `color-removal` (Thunderbird's dark reader): colors that would not read on the reader's dark page are
 * removed, not inverted: body colors, bgcolor and color attributes, and per style block (a style attribute
 * or a `<style>` rule) light backgrounds and dark text. Buttons are left alone.
 */
function removeColors(context: DarkModeContext, view: ClientView, client: EmailClient): DarkModeVariant {
  const { parsed } = context.transform;
  const plan = layerPlan(view.plan);
  const body = parsed.elementsByTag.get('body')?.[0];
  let changed = 0;
  for (const element of context.colorCandidates) {
    if (plan.removed.has(element) || element.tagName === 'button') continue;
    const isBody = element === body;
    const own: readonly Decl[] = view.styles.get(element) ?? parsed.inlineStyles.get(element)?.declarations ?? [];
    const attrs = view.attributesOf(element);
    const dropped = isBody ? READER_BODY_ATTRIBUTES : READER_ELEMENT_ATTRIBUTES;
    const visited =
      isBody ||
      own.some((d) => d.property.includes('color') || d.property.startsWith('background')) ||
      attrs.some((a) => a.name === 'bgcolor' || a.name === 'color');
    if (!visited) continue;
    let declarations = isBody ? own.filter((d) => d.property !== 'background-color' && d.property !== 'color') : [...own];
    declarations = applyRemovals(declarations, readerRemovals(declarations));
    const kept = attrs.filter((a) => a.prefix || !dropped.has(a.name));
    if (isBody) {
      declarations = [
        { property: 'background-color', value: DARK_READER.page, important: false },
        { property: 'color', value: DARK_READER.text, important: false },
        ...declarations,
      ];
    } else if (kept.length === attrs.length && declarations.length === own.length) continue;
    changed++;
    const withoutStyle = kept.filter((a) => a.name !== 'style' || a.prefix);
    const styleIndex = kept.findIndex((a) => a.name === 'style' && !a.prefix);
    if (declarations.length > 0)
      withoutStyle.splice(styleIndex >= 0 ? styleIndex : withoutStyle.length, 0, { name: 'style', value: serializeDeclarations(declarations) });
    plan.startTags.set(element, serializeStartTag(element.tagName, withoutStyle));
  }
  const byRule = new Map<Rule, Map<string, string | null>>();
  for (const sheet of parsed.styleSheets) {
    const text = view.writeSheet(sheet, {
      rewrite: (d: Declaration) => {
        const rule = d.parent?.type === 'rule' ? (d.parent as Rule) : undefined;
        if (!rule) return undefined;
        let removals = byRule.get(rule);
        if (!removals) {
          const own = rule.nodes
            .filter((n): n is Declaration => n.type === 'decl')
            .map((n) => ({ property: n.prop.toLowerCase(), value: n.value, important: n.important === true }));
          byRule.set(rule, (removals = readerRemovals(own)));
        }
        const property = d.prop.toLowerCase();
        if (!removals.has(property)) return undefined;
        const value = removals.get(property);
        return value ? { property, value, important: d.important === true } : null;
      },
    });
    if (text !== undefined && !plan.removed.has(sheet.element)) plan.styleTexts.set(sheet.element, text);
  }
  const warnings: TransformWarning[] = [];
  addWarning(
    warnings,
    view.client,
    'info',
    'dark-mode',
    `${client.name}'s dark reader removes light backgrounds and dark text colors (it does not invert them) over its ${DARK_READER.page} page; ${changed} element(s) changed.`,
  );
  return { plan, warnings, sameAsTransform: false, colors: colorHandover(view, 'color-removal', context.inverters.removal, null, READER_CANVAS) };
}
