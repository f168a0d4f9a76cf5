/**
 * The gate's visual check (docs/gate.md, "The visual check"): did this version make one client's rendering
 * depart further from the design than the last passing version did, while the design itself (the reference
 * rendering) changed little? Then the change broke that client rather than changed the design, and the
 * failure names the client, the scheme, the regions and the elements under them. Pure: the worker reads
 * the divergence (worker-render's `visualReport.divergence`) and the stored baseline, this decides.
 */
import { getClient, isClientId } from '../clients/email-clients';
import { isReferenceFingerprint, referenceChange, type ReferenceFingerprint } from './visual-fingerprint';

export type VisualScheme = 'light' | 'dark';
export const VISUAL_SCHEMES: readonly VisualScheme[] = ['light', 'dark'];
/** The viewports the email is painted in, each with a reference rendering of its own (mobile clients: 390 px, the rest: 800 px). */
export type VisualViewport = 'wide' | 'mobile';
/** A reference rendering: `wide-light`, `mobile-dark`… (worker-render's shot `reference-<viewport>-<scheme>`). */
export type VisualReferenceKey = `${VisualViewport}-${VisualScheme}`;

/** The reference a client's rendering of `scheme` is compared with: the mobile viewport's for a mobile client, else the wide one's. */
export function referenceKeyFor(clientId: string, scheme: VisualScheme): VisualReferenceKey {
  const viewport: VisualViewport = isClientId(clientId) && getClient(clientId).category === 'mobile' ? 'mobile' : 'wide';
  return `${viewport}-${scheme}`;
}

/**
 * Points of divergence (0-100) a client may gain over the baseline before it fails. Chosen on the
 * development half of the hand-made pairs (test/fixtures/visual-pairs, docs/accuracy.md "The visual
 * check"): the middle of the gap between the largest growth of any client in a text-only pair (0.9) and the
 * smallest growth of the broken client in a broken pair (5.4); then held against the other half.
 */
export const GATE_VISUAL_DEFAULT_THRESHOLD = 3;
/**
 * The reference rendering "changed little" while at most this share of its tiles (percent) changed; past
 * it the growth is taken as the design's doing, reported as a note. Above the largest reference change of a
 * text-only pair of the development half (15.45%: a paragraph one sentence longer moves everything below it),
 * so that a client broken together with a text edit still fails; the pairs have no redesign to set it from.
 */
export const GATE_VISUAL_MAX_REFERENCE_CHANGE = 25;
/** Regions a failure lists at most (largest first), and elements per region. */
export const GATE_VISUAL_MAX_REGIONS = 5;
export const GATE_VISUAL_MAX_ELEMENTS = 5;

export interface VisualBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One region where a client departs from the reference (the shape of contracts' `DivergenceRegion`). */
export interface VisualRegion {
  box: VisualBox;
  kind: 'layout' | 'color';
  elements: Array<{ selector: string; line: number | null }>;
  cause?: { message: string; property?: string; behaviour?: string };
}

/** One client and scheme against the reference (contracts' `VisualDivergence`). */
export interface VisualClientDivergence {
  score: number;
  regions: VisualRegion[];
}

/** `visualReport.divergence`: client id -> scheme -> divergence. */
export type VisualDivergenceMap = Partial<Record<string, Partial<Record<VisualScheme, VisualClientDivergence>>>>;

/** What a gate baseline keeps for the visual check, and what a run measured: the divergence, and each reference rendering's fingerprint (by viewport and scheme). */
export interface GateVisualSnapshot {
  version: 1;
  divergence: VisualDivergenceMap;
  reference: Partial<Record<VisualReferenceKey, ReferenceFingerprint>>;
}

export interface VisualRegressionFailure {
  family: 'visual';
  check: 'divergence';
  clientId: string;
  scheme: VisualScheme;
  /** This version's divergence of the client from the reference, 0-100. */
  score: number;
  /** The baseline's. */
  baselineScore: number;
  /** The growth allowed (score - baselineScore above it fails). */
  threshold: number;
  /** Share of the tiles of the client's reference rendering (its viewport and scheme) that changed between the two versions (percent); null when a fingerprint was missing. */
  referenceChange: number | null;
  /** The regions this version added (none of the baseline's overlaps them), largest first; all of the client's when it added none. */
  regions: VisualRegion[];
}

export interface VisualNote {
  family: 'visual';
  check: 'divergence';
  clientId?: string;
  scheme?: VisualScheme;
  reason: string;
}

export interface VisualCheckOptions {
  /** Client ids checked. */
  clients: readonly string[];
  /** Growth (points) allowed; default `GATE_VISUAL_DEFAULT_THRESHOLD`. */
  threshold?: number;
  /** Reference change (percent of tiles) up to which the design counts as unchanged; default `GATE_VISUAL_MAX_REFERENCE_CHANGE`. */
  maxReferenceChange?: number;
}

export interface VisualCheckOutcome {
  failures: VisualRegressionFailure[];
  notes: VisualNote[];
}

export const VISUAL_NO_BASELINE_REASON = 'no visual baseline for this ref yet: this version is the first one measured';
export const VISUAL_NOT_PAINTED_REASON = 'the email was not painted, so no client could be compared';

function area(box: VisualBox): number {
  return Math.max(0, box.width) * Math.max(0, box.height);
}

function overlap(a: VisualBox, b: VisualBox): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/** A region the baseline had already: one of the baseline's regions covers at least half of it (or it covers half of one). */
function hadBefore(region: VisualRegion, before: readonly VisualRegion[]): boolean {
  return before.some((old) => {
    const shared = overlap(region.box, old.box);
    return shared > 0 && shared >= 0.5 * Math.min(area(region.box), area(old.box));
  });
}

/** The regions a failure names: the new ones, largest first, each with its first elements; all of them when none is new. */
export function newRegions(current: readonly VisualRegion[], before: readonly VisualRegion[]): VisualRegion[] {
  const added = current.filter((region) => !hadBefore(region, before));
  const named = (added.length > 0 ? added : [...current]).sort((a, b) => area(b.box) - area(a.box)).slice(0, GATE_VISUAL_MAX_REGIONS);
  return named.map((region) => ({ ...region, elements: region.elements.slice(0, GATE_VISUAL_MAX_ELEMENTS) }));
}

function referenceChangeOf(current: GateVisualSnapshot, baseline: GateVisualSnapshot, clientId: string, scheme: VisualScheme): number | null {
  const key = referenceKeyFor(clientId, scheme);
  const before = baseline.reference[key];
  const after = current.reference[key];
  return isReferenceFingerprint(before) && isReferenceFingerprint(after) ? referenceChange(before, after) : null;
}

const rounded = (value: number) => Math.round(value * 100) / 100;

/**
 * Each checked client and scheme both versions measured: a failure when its divergence grew by more than
 * the threshold and the reference changed by at most `maxReferenceChange` (or could not be compared); a
 * note when it grew past the threshold with the design (so the growth is the design's, not the client's).
 * Without a current measurement or a baseline one, a note says why nothing was compared.
 */
export function visualCheck(current: GateVisualSnapshot | null, baseline: GateVisualSnapshot | null, options: VisualCheckOptions): VisualCheckOutcome {
  const threshold = options.threshold ?? GATE_VISUAL_DEFAULT_THRESHOLD;
  const maxReferenceChange = options.maxReferenceChange ?? GATE_VISUAL_MAX_REFERENCE_CHANGE;
  if (!current || Object.keys(current.divergence).length === 0)
    return { failures: [], notes: [{ family: 'visual', check: 'divergence', reason: VISUAL_NOT_PAINTED_REASON }] };
  if (!baseline) return { failures: [], notes: [{ family: 'visual', check: 'divergence', reason: VISUAL_NO_BASELINE_REASON }] };
  const failures: VisualRegressionFailure[] = [];
  const notes: VisualNote[] = [];
  const clients = [...new Set(options.clients)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const clientId of clients) {
    for (const scheme of VISUAL_SCHEMES) {
      const now = current.divergence[clientId]?.[scheme];
      const before = baseline.divergence[clientId]?.[scheme];
      if (!now || !before) continue;
      const growth = now.score - before.score;
      if (!(growth > threshold)) continue;
      const change = referenceChangeOf(current, baseline, clientId, scheme);
      if (change !== null && change > maxReferenceChange) {
        notes.push({
          family: 'visual',
          check: 'divergence',
          clientId,
          scheme,
          reason: `divergence grew by ${rounded(growth)} points, but ${change}% of the reference rendering changed too: taken as a design change`,
        });
        continue;
      }
      failures.push({
        family: 'visual',
        check: 'divergence',
        clientId,
        scheme,
        score: now.score,
        baselineScore: before.score,
        threshold,
        referenceChange: change,
        regions: newRegions(now.regions, before.regions),
      });
    }
  }
  return { failures, notes };
}

/** A visual snapshot as stored is checked before it is compared (version and shape). */
export function isGateVisualSnapshot(value: unknown): value is GateVisualSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const snapshot = value as Partial<GateVisualSnapshot>;
  return snapshot.version === 1 && typeof snapshot.divergence === 'object' && snapshot.divergence !== null && typeof snapshot.reference === 'object';
}
