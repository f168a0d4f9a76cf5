import type { ClientId, DarkModeBehavior } from '../email-client';
import type {
  AdditionBehavior,
  ClientBehavior,
  ClientModel,
  DarkBehavior,
  DropBlockBehavior,
  ElementBehavior,
  PrefixBehavior,
  RewriteBehavior,
  SanitizeBehavior,
} from './client-behavior';
import { CLIENT_MODELS } from './client-models';
import type { HtmlElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';

/** A client's behaviors sorted by what reads them, built once per client (the transform's hot path reads these). */
export interface ClientRules {
  model: ClientModel;
  sanitize: readonly SanitizeBehavior[];
  /** Tag -> the behavior that removes it (with content) or unwraps it. */
  removes: ReadonlyMap<string, SanitizeBehavior>;
  unwraps: ReadonlyMap<string, SanitizeBehavior>;
  /** The behaviour that says which base URL the client resolves relative URLs against, if any. */
  urlBase: SanitizeBehavior | undefined;
  /** The behaviour that clips a long message (Gmail past 102 KB), if any. */
  clip: SanitizeBehavior | undefined;
  dropBlocks: readonly DropBlockBehavior[];
  rewrites: readonly RewriteBehavior[];
  /** The declaration rewrites that can change this property, in model order (memoised per property). */
  rewritesFor(property: string): readonly RewriteBehavior[];
  /** Identifies the client's rewrite and drop-block rules: clients with the same one share their rewrite results. */
  rewriteSignature: string;
  prefix: PrefixBehavior | undefined;
  /** Property -> the element rules that govern it, in model order (the Word engine has two on `display`). */
  elementRules: ReadonlyMap<string, readonly ElementBehavior[]>;
  additions: readonly AdditionBehavior[];
  /** The dark model shown (the first non-alternative dark behavior). */
  dark: DarkBehavior | undefined;
}

function compile(model: ClientModel): ClientRules {
  const shown = model.behaviors.filter((b) => !b.alternative);
  const ofKind = <K extends ClientBehavior['kind']>(kind: K) => shown.filter((b): b is Extract<ClientBehavior, { kind: K }> => b.kind === kind);
  const sanitize = ofKind('sanitize');
  const removes = new Map<string, SanitizeBehavior>();
  const unwraps = new Map<string, SanitizeBehavior>();
  for (const behavior of sanitize) {
    for (const tag of behavior.removesElements ?? []) removes.set(tag, behavior);
    for (const tag of behavior.unwrapsElements ?? []) unwraps.set(tag, behavior);
  }
  const rewrites = ofKind('rewrite');
  const declarationRewrites = rewrites.filter((r) => r.rewrite);
  const byProperty = new Map<string, readonly RewriteBehavior[]>();
  const rewritesFor = (property: string): readonly RewriteBehavior[] => {
    if (declarationRewrites.length === 0) return NO_REWRITES;
    let list = byProperty.get(property);
    if (!list) {
      list = declarationRewrites.filter(
        (r) => !r.properties || r.properties.some((p) => (p.endsWith('*') ? property.startsWith(p.slice(0, -1)) : p === property)),
      );
      byProperty.set(property, list);
    }
    return list;
  };
  const dropBlocks = ofKind('drop-block');
  const elementRules = new Map<string, ElementBehavior[]>();
  for (const behavior of ofKind('element')) {
    for (const property of behavior.properties) {
      const list = elementRules.get(property);
      if (list) list.push(behavior);
      else elementRules.set(property, [behavior]);
    }
  }
  return {
    model,
    sanitize,
    removes,
    unwraps,
    urlBase: sanitize.find((b) => b.resolvesUrlsAgainst),
    clip: sanitize.find((b) => b.clipsAfterBytes !== undefined),
    dropBlocks,
    rewrites,
    rewritesFor,
    rewriteSignature: [...rewrites, ...dropBlocks].map((b) => b.id).join(' '),
    prefix: composePrefixes(ofKind('prefix')),
    elementRules,
    additions: ofKind('addition'),
    dark: ofKind('dark')[0],
  };
}

const NO_REWRITES: readonly RewriteBehavior[] = [];

/**
 * A client's prefix behaviours as the one the transform reads: the first names the class and id prefixes;
 * the others (selector limits, documented-limits.model.ts) add their selector rewrites after its own.
 */
function composePrefixes(prefixes: readonly PrefixBehavior[]): PrefixBehavior | undefined {
  if (prefixes.length <= 1) return prefixes[0];
  const rewrites = prefixes.flatMap((p) => (p.rewriteSelector ? [p.rewriteSelector] : []));
  return {
    ...prefixes[0],
    id: prefixes.map((p) => p.id).join('+'),
    ...(prefixes.some((p) => p.flattensNestedRules) ? { flattensNestedRules: true as const } : {}),
    rewriteSelector: (selector) => {
      let current: string | null = selector;
      for (const rewrite of rewrites) {
        if (!current) return null;
        current = rewrite(current);
      }
      return current;
    },
  };
}
const RULES = new Map<ClientId, ClientRules>();

export function rulesOf(client: ClientId): ClientRules {
  let rules = RULES.get(client);
  if (!rules) {
    rules = compile(CLIENT_MODELS[client]);
    RULES.set(client, rules);
  }
  return rules;
}

/** Whether the client removes (or unwraps) this element: its tag is listed, and the behaviour's condition, if any, accepts it. */
export function sanitizesElement(map: ClientRules['removes'], element: HtmlElement, parsed: ParsedEmail): SanitizeBehavior | undefined {
  const behavior = map.get(element.tagName);
  return behavior && (behavior.sanitizesWhen?.(element, parsed) ?? true) ? behavior : undefined;
}

/** The dark model a client shows by default (its model's first non-alternative dark behavior). */
export function darkModelOf(client: ClientId): DarkModeBehavior {
  return rulesOf(client).dark?.model ?? 'none';
}

/** Every tag some client's sanitizer removes or unwraps (the transform precomputes these elements once). */
export function sanitizedTags(): ReadonlySet<string> {
  const tags = new Set<string>();
  for (const model of Object.values(CLIENT_MODELS)) {
    for (const behavior of model.behaviors) {
      if (behavior.kind !== 'sanitize') continue;
      for (const tag of behavior.removesElements ?? []) tags.add(tag);
      for (const tag of behavior.unwrapsElements ?? []) tags.add(tag);
    }
  }
  return tags;
}
