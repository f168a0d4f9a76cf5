import { CANIEMAIL, CaniemailFeature } from './caniemail-data';
import { CLIENT_IDS, ClientId } from './email-client';
import { EMAIL_CLIENTS } from './email-clients';
import { rulesOf } from './models/client-rules';

export type SupportLevel = 'supported' | 'partial' | 'unsupported' | 'unknown';

export interface ClientSupport {
  level: SupportLevel;
  /** caniemail's numbered notes for this client's result, as text. */
  notes: readonly string[];
}

const LEVEL_BY_CODE: Record<string, SupportLevel> = { y: 'supported', a: 'partial', n: 'unsupported', u: 'unknown' };
/** Lower is worse; used when several platforms feed one client (Thunderbird). */
const LEVEL_RANK: Record<SupportLevel, number> = { unsupported: 0, partial: 1, supported: 2, unknown: 3 };

const UNKNOWN: ClientSupport = Object.freeze({ level: 'unknown', notes: Object.freeze([]) as readonly string[] });
const SUPPORTED: ClientSupport = Object.freeze({ level: 'supported', notes: Object.freeze([]) as readonly string[] });

/**
 * The newest result of one `family.platform`. caniemail lists a platform's results oldest first
 * (its keys mix dates like `2019-02` with versions like `16.80`, so key order is the only reliable
 * chronology), hence the last key wins.
 */
function newestResult(feature: CaniemailFeature, source: string): ClientSupport {
  const [family, platform] = source.split('.');
  const results = feature.stats[family]?.[platform];
  if (!results) return UNKNOWN;
  const keys = Object.keys(results);
  if (keys.length === 0) return UNKNOWN;
  const raw = results[keys[keys.length - 1]].trim();
  const [code, ...refs] = raw.split(/\s+/);
  const level = LEVEL_BY_CODE[code] ?? 'unknown';
  const notes = refs
    .map((ref) => feature.notes_by_num?.[ref.replace('#', '')])
    .filter((note): note is string => typeof note === 'string')
    .map(stripMarkdownLinks);
  return { level, notes };
}

function stripMarkdownLinks(note: string): string {
  return note.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1').replace(/`/g, '');
}

/** Several sources: the worst known level wins; notes of the sources at that level are merged. */
function combine(results: ClientSupport[]): ClientSupport {
  const known = results.filter((result) => result.level !== 'unknown');
  if (known.length === 0) return UNKNOWN;
  const worst = known.reduce((a, b) => (LEVEL_RANK[b.level] < LEVEL_RANK[a.level] ? b : a));
  const notes = [...new Set(known.filter((r) => r.level === worst.level).flatMap((r) => r.notes))];
  return { level: worst.level, notes };
}

function supportOf(feature: CaniemailFeature, sources: readonly string[]): ClientSupport {
  // No data at all (Superhuman): Chromium renders every feature caniemail tracks.
  if (sources.length === 0) return SUPPORTED;
  return combine(sources.map((source) => newestResult(feature, source)));
}

export interface FeatureSupportRow {
  /** Indexed like CLIENT_IDS. */
  byClient: readonly ClientSupport[];
  /** Bit i set when CLIENT_IDS[i] does not support the feature at all. */
  unsupportedMask: number;
  partialMask: number;
}

const FEATURE_BY_SLUG = new Map<string, CaniemailFeature>(CANIEMAIL.data.map((f) => [f.slug, f]));
const ROWS = new Map<string, FeatureSupportRow>();

/**
 * caniemail's level, unless the client's model documents otherwise (Proton keeps its selectors): the
 * override carries a note naming the behavior, so findings and GET /api/clients/properties say why.
 */
function withModelOverride(support: ClientSupport, slug: string, client: (typeof EMAIL_CLIENTS)[number]): ClientSupport {
  for (const behavior of rulesOf(client.id).sanitize) {
    const level = behavior.supportOverrides?.[slug];
    if (level && level !== support.level) return { level, notes: [`Mailproof's model (${behavior.id}): ${behavior.summary}`] };
  }
  return support;
}

for (const feature of CANIEMAIL.data) {
  const byClient = EMAIL_CLIENTS.map((client) => withModelOverride(supportOf(feature, client.supportSources), feature.slug, client));
  let unsupportedMask = 0;
  let partialMask = 0;
  byClient.forEach((support, index) => {
    if (support.level === 'unsupported') unsupportedMask |= 1 << index;
    if (support.level === 'partial') partialMask |= 1 << index;
  });
  ROWS.set(feature.slug, { byClient, unsupportedMask, partialMask });
}

export function getCaniemailFeature(slug: string): CaniemailFeature | undefined {
  return FEATURE_BY_SLUG.get(slug);
}

/** Support of one caniemail feature across the 21 clients; undefined for slugs caniemail lacks. */
export function getFeatureSupport(slug: string): FeatureSupportRow | undefined {
  return ROWS.get(slug);
}

export function getClientSupport(slug: string, client: ClientId): ClientSupport {
  return ROWS.get(slug)?.byClient[CLIENT_IDS.indexOf(client)] ?? UNKNOWN;
}

export const CANIEMAIL_VERSION = { apiVersion: CANIEMAIL.api_version, lastUpdate: CANIEMAIL.last_update_date };
