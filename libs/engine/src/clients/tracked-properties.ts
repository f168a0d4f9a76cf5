import { getTrackedFeature, PROPERTY_FEATURES } from './feature-catalog';
import { ClientSupport, SupportLevel } from './client-support';
import { STANDARD_CSS_PROPERTIES } from './css-properties';
import { CLIENT_IDS, ClientId } from './email-client';

export interface TrackedProperty {
  property: string;
  /** caniemail feature slugs that describe it; empty when caniemail has no data for it. */
  features: string[];
  support: Record<ClientId, { level: SupportLevel; notes: readonly string[] }>;
}

const RANK: Record<SupportLevel, number> = { unsupported: 0, partial: 1, supported: 2, unknown: 3 };
const UNKNOWN: ClientSupport = { level: 'unknown', notes: [] };

/** Worst support among several features describing one property, for one client index. */
export function worstSupport(featureIds: readonly string[], clientIndex: number): ClientSupport {
  // The answer depends on the catalog alone; the feature lists of collect-features' uses are shared objects
  // (one per label and list), so cssReport's question for every hit and client is mostly a lookup.
  let perClient = WORST_SUPPORT.get(featureIds);
  if (!perClient) WORST_SUPPORT.set(featureIds, (perClient = []));
  let worst = perClient[clientIndex];
  if (worst === undefined) {
    worst = UNKNOWN;
    for (const id of featureIds) {
      const support = getTrackedFeature(id)?.support.byClient[clientIndex];
      if (support && RANK[support.level] < RANK[worst.level]) worst = support;
    }
    perClient[clientIndex] = worst;
  }
  return worst;
}

/** worstSupport for every client index at once (cssReport reads one list per hit instead of one lookup per hit and client). */
export function worstSupportByClient(featureIds: readonly string[]): readonly ClientSupport[] {
  let all = ALL_CLIENTS_SUPPORT.get(featureIds);
  if (!all) {
    all = CLIENT_IDS.map((_, index) => worstSupport(featureIds, index));
    ALL_CLIENTS_SUPPORT.set(featureIds, all);
  }
  return all;
}

/** worstSupportByClient's answers per feature list (complete lists; worstSupport's fill per client). */
const ALL_CLIENTS_SUPPORT = new WeakMap<readonly string[], readonly ClientSupport[]>();

/** worstSupport's answers per feature list (held weakly: a list built for one call is collected with it). */
const WORST_SUPPORT = new WeakMap<readonly string[], ClientSupport[]>();

let cache: TrackedProperty[] | undefined;

/**
 * Every tracked CSS property (each one a caniemail feature names, plus every standard property of
 * `known-css-properties`) with its support in each of the 21 clients, sorted by name.
 * Used by `mailproof clients --properties` and `GET /api/clients/properties`.
 */
export function listTrackedProperties(): TrackedProperty[] {
  if (cache) return cache;
  const names = [...new Set([...PROPERTY_FEATURES.keys(), ...STANDARD_CSS_PROPERTIES])].sort();
  cache = names.map((property) => {
    const features = PROPERTY_FEATURES.get(property) ?? [];
    const support = {} as TrackedProperty['support'];
    CLIENT_IDS.forEach((id, index) => {
      const { level, notes } = worstSupport(features, index);
      support[id] = { level, notes };
    });
    return { property, features, support };
  });
  return cache;
}
