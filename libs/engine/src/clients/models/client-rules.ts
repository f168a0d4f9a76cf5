import type { ClientId, DarkModeBehaviour } from '../email-client';
import type {
  AdditionBehaviour,
  ClientBehaviour,
  ClientModel,
  DarkBehaviour,
  DropBlockBehaviour,
  ElementBehaviour,
  PrefixBehaviour,
  RewriteBehaviour,
  SanitiseBehaviour,
} from './client-behaviour';
import { CLIENT_MODELS } from './client-models';

/** A client's behaviours sorted by what reads them, built once per client (the transform's hot path reads these). */
export interface ClientRules {
  model: ClientModel;
  sanitise: readonly SanitiseBehaviour[];
  /** Tag -> the behaviour that removes it (with content) or unwraps it. */
  removes: ReadonlyMap<string, SanitiseBehaviour>;
  unwraps: ReadonlyMap<string, SanitiseBehaviour>;
  dropBlocks: readonly DropBlockBehaviour[];
  rewrites: readonly RewriteBehaviour[];
  /** The declaration rewrites that can change this property, in model order (memoised per property). */
  rewritesFor(property: string): readonly RewriteBehaviour[];
  /** Identifies the client's rewrite and drop-block rules: clients with the same one share their rewrite results. */
  rewriteSignature: string;
  prefix: PrefixBehaviour | undefined;
  /** Property -> the element rule that governs it. */
  elementRules: ReadonlyMap<string, ElementBehaviour>;
  additions: readonly AdditionBehaviour[];
  /** The dark model shown (the first non-alternative dark behaviour). */
  dark: DarkBehaviour | undefined;
}

function compile(model: ClientModel): ClientRules {
  const shown = model.behaviours.filter((b) => !b.alternative);
  const ofKind = <K extends ClientBehaviour['kind']>(kind: K) => shown.filter((b): b is Extract<ClientBehaviour, { kind: K }> => b.kind === kind);
  const sanitise = ofKind('sanitise');
  const removes = new Map<string, SanitiseBehaviour>();
  const unwraps = new Map<string, SanitiseBehaviour>();
  for (const behaviour of sanitise) {
    for (const tag of behaviour.removesElements ?? []) removes.set(tag, behaviour);
    for (const tag of behaviour.unwrapsElements ?? []) unwraps.set(tag, behaviour);
  }
  const rewrites = ofKind('rewrite');
  const declarationRewrites = rewrites.filter((r) => r.rewrite);
  const byProperty = new Map<string, readonly RewriteBehaviour[]>();
  const rewritesFor = (property: string): readonly RewriteBehaviour[] => {
    if (declarationRewrites.length === 0) return NO_REWRITES;
    let list = byProperty.get(property);
    if (!list) {
      list = declarationRewrites.filter((r) => !r.properties || r.properties.some((p) => (p.endsWith('*') ? property.startsWith(p.slice(0, -1)) : p === property)));
      byProperty.set(property, list);
    }
    return list;
  };
  const dropBlocks = ofKind('drop-block');
  const elementRules = new Map<string, ElementBehaviour>();
  for (const behaviour of ofKind('element')) for (const property of behaviour.properties) elementRules.set(property, behaviour);
  return {
    model,
    sanitise,
    removes,
    unwraps,
    dropBlocks,
    rewrites,
    rewritesFor,
    rewriteSignature: [...rewrites, ...dropBlocks].map((b) => b.id).join(' '),
    prefix: ofKind('prefix')[0],
    elementRules,
    additions: ofKind('addition'),
    dark: ofKind('dark')[0],
  };
}

const NO_REWRITES: readonly RewriteBehaviour[] = [];
const RULES = new Map<ClientId, ClientRules>();

export function rulesOf(client: ClientId): ClientRules {
  let rules = RULES.get(client);
  if (!rules) {
    rules = compile(CLIENT_MODELS[client]);
    RULES.set(client, rules);
  }
  return rules;
}

/** The dark model a client shows by default (its model's first non-alternative dark behaviour). */
export function darkModelOf(client: ClientId): DarkModeBehaviour {
  return rulesOf(client).dark?.model ?? 'none';
}

/** Every tag some client's sanitiser removes or unwraps (the transform precomputes these elements once). */
export function sanitisedTags(): ReadonlySet<string> {
  const tags = new Set<string>();
  for (const model of Object.values(CLIENT_MODELS)) {
    for (const behaviour of model.behaviours) {
      if (behaviour.kind !== 'sanitise') continue;
      for (const tag of behaviour.removesElements ?? []) tags.add(tag);
      for (const tag of behaviour.unwrapsElements ?? []) tags.add(tag);
    }
  }
  return tags;
}
