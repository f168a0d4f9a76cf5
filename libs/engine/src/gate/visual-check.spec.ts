import { gateVerdict } from './gate-verdict';
import { gateSnapshot } from './gate-snapshot';
import { analyze, email } from './testing/gate-fixtures';
import {
  GATE_VISUAL_DEFAULT_THRESHOLD,
  GATE_VISUAL_MAX_REGIONS,
  VISUAL_NO_BASELINE_REASON,
  VISUAL_NOT_PAINTED_REASON,
  newRegions,
  referenceKeyFor,
  visualCheck,
  type GateVisualSnapshot,
  type VisualRegion,
} from './visual-check';
import { referenceFingerprint, referenceChange, type RgbaImage } from './visual-fingerprint';

/** A white page of `width` x `height` px with dark rectangles painted on it. */
function page(width: number, height: number, dark: Array<[number, number, number, number]> = []): RgbaImage {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const [x0, y0, w, h] of dark) {
    for (let y = y0; y < Math.min(height, y0 + h); y++) {
      for (let x = x0; x < Math.min(width, x0 + w); x++) data.fill(20, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return { width, height, data };
}

const region = (x: number, y: number, width: number, height: number, selector = 'table > tr > td', kind: VisualRegion['kind'] = 'layout'): VisualRegion => ({
  box: { x, y, width, height },
  kind,
  elements: [{ selector, line: 12 }],
});

const PAGE = page(600, 800, [[40, 40, 520, 60]]);
const print = referenceFingerprint(PAGE);

function snapshot(scores: Record<string, number>, regions: Record<string, VisualRegion[]> = {}, reference = print): GateVisualSnapshot {
  const divergence: GateVisualSnapshot['divergence'] = {};
  for (const [clientId, score] of Object.entries(scores)) divergence[clientId] = { light: { score, regions: regions[clientId] ?? [] } };
  return { version: 1, divergence, reference: { 'wide-light': reference } };
}

const CLIENTS = ['gmail-web', 'outlook-windows-legacy', 'yahoo-mail'];

describe('referenceFingerprint and referenceChange', () => {
  it('cuts the page into 32 px tiles of mean luminance, the same at any device scale', () => {
    expect(print).toMatchObject({ tile: 32, columns: 19, rows: 25 });
    expect(print.cells).toHaveLength(19 * 25 * 2);
    // The first tile is white, the tile under the dark band (x 64-95, y 64-95) is partly dark.
    expect(print.cells.slice(0, 2)).toBe('ff');
    expect(parseInt(print.cells.slice((2 * 19 + 2) * 2, (2 * 19 + 2) * 2 + 2), 16)).toBeLessThan(255);
    const doubled = referenceFingerprint(page(1200, 1600, [[80, 80, 1040, 120]]), 2);
    expect(referenceChange(print, doubled)).toBe(0);
  });

  it('is 0 for the same page, counts changed tiles for a changed band, and counts tiles only one page has', () => {
    expect(referenceChange(print, referenceFingerprint(PAGE))).toBe(0);
    // A new dark band 600 x 32 px at y 320 (one row of tiles of 25): 4%.
    expect(
      referenceChange(
        print,
        referenceFingerprint(
          page(600, 800, [
            [40, 40, 520, 60],
            [0, 320, 600, 32],
          ]),
        ),
      ),
    ).toBe(4);
    // The page grew by 160 px (5 rows): 5 of 30 rows are new.
    expect(referenceChange(print, referenceFingerprint(page(600, 960, [[40, 40, 520, 60]])))).toBeCloseTo(16.67, 2);
  });

  it('cannot compare fingerprints of different tile sizes: 100', () => {
    expect(referenceChange(print, { ...print, tile: 16 })).toBe(100);
  });
});

describe('visualCheck', () => {
  const before = snapshot(
    { 'gmail-web': 2, 'outlook-windows-legacy': 4, 'yahoo-mail': 3 },
    { 'outlook-windows-legacy': [region(0, 600, 600, 40, 'td.footer')] },
  );

  it('fails the one client whose divergence grew past the threshold while the reference stayed the same, naming its new regions and elements', () => {
    const now = snapshot(
      { 'gmail-web': 2, 'outlook-windows-legacy': 31, 'yahoo-mail': 3 },
      { 'outlook-windows-legacy': [region(0, 600, 600, 40, 'td.footer'), region(20, 120, 560, 300, 'div.columns > div', 'layout')] },
    );
    const outcome = visualCheck(now, before, { clients: CLIENTS });
    expect(outcome.notes).toEqual([]);
    expect(outcome.failures).toEqual([
      {
        family: 'visual',
        check: 'divergence',
        clientId: 'outlook-windows-legacy',
        scheme: 'light',
        score: 31,
        baselineScore: 4,
        threshold: GATE_VISUAL_DEFAULT_THRESHOLD,
        referenceChange: 0,
        regions: [region(20, 120, 560, 300, 'div.columns > div', 'layout')],
      },
    ]);
  });

  it('a growth equal to the threshold passes; one point more fails', () => {
    const at = snapshot({ 'gmail-web': 2, 'outlook-windows-legacy': 4 + GATE_VISUAL_DEFAULT_THRESHOLD, 'yahoo-mail': 3 });
    expect(visualCheck(at, before, { clients: CLIENTS }).failures).toEqual([]);
    const past = snapshot({ 'gmail-web': 2, 'outlook-windows-legacy': 5 + GATE_VISUAL_DEFAULT_THRESHOLD, 'yahoo-mail': 3 });
    expect(visualCheck(past, before, { clients: CLIENTS }).failures.map((f) => f.clientId)).toEqual(['outlook-windows-legacy']);
    expect(visualCheck(past, before, { clients: CLIENTS, threshold: 10 }).failures).toEqual([]);
  });

  it('takes a growth that comes with a changed reference as a design change: a note, no failure', () => {
    const redesigned = referenceFingerprint(page(600, 800, [[0, 0, 600, 400]]));
    const now = snapshot({ 'gmail-web': 2, 'outlook-windows-legacy': 31, 'yahoo-mail': 3 }, {}, redesigned);
    const outcome = visualCheck(now, before, { clients: CLIENTS });
    expect(outcome.failures).toEqual([]);
    expect(outcome.notes).toHaveLength(1);
    expect(outcome.notes[0]).toMatchObject({ family: 'visual', check: 'divergence', clientId: 'outlook-windows-legacy', scheme: 'light' });
    expect(outcome.notes[0].reason).toMatch(/^divergence grew by 27 points, but \d+(\.\d+)?% of the reference rendering changed too/);
  });

  it('judges only the checked clients and the schemes both versions measured; a shrinking divergence never fails', () => {
    const now = snapshot({ 'gmail-web': 40, 'outlook-windows-legacy': 0, 'yahoo-mail': 3 });
    expect(visualCheck(now, before, { clients: ['outlook-windows-legacy', 'yahoo-mail'] }).failures).toEqual([]);
    const dark: GateVisualSnapshot = { ...now, divergence: { 'gmail-web': { dark: { score: 90, regions: [] } } } };
    expect(visualCheck(dark, before, { clients: CLIENTS })).toEqual({ failures: [], notes: [] });
  });

  it("compares a mobile client's growth with the mobile reference's change", () => {
    const mobileBefore: GateVisualSnapshot = {
      version: 1,
      divergence: { 'gmail-ios': { light: { score: 2, regions: [] } } },
      reference: { 'mobile-light': print },
    };
    const redesigned = referenceFingerprint(page(600, 800, [[0, 0, 600, 400]]));
    // The wide reference changed a lot, the mobile one not at all: a mobile client's growth is its own.
    const now: GateVisualSnapshot = {
      version: 1,
      divergence: { 'gmail-ios': { light: { score: 30, regions: [] } } },
      reference: { 'mobile-light': print, 'wide-light': redesigned },
    };
    expect(visualCheck(now, mobileBefore, { clients: ['gmail-ios'] }).failures).toMatchObject([{ clientId: 'gmail-ios', referenceChange: 0 }]);
    expect(referenceKeyFor('gmail-ios', 'dark')).toBe('mobile-dark');
    expect(referenceKeyFor('outlook-windows-legacy', 'light')).toBe('wide-light');
  });

  it('without a fingerprint on one side the growth alone decides, and referenceChange is null', () => {
    const now: GateVisualSnapshot = { ...snapshot({ 'outlook-windows-legacy': 31 }), reference: {} };
    expect(visualCheck(now, before, { clients: CLIENTS }).failures).toMatchObject([{ clientId: 'outlook-windows-legacy', referenceChange: null }]);
  });

  it('says why it compared nothing: no baseline measured yet, or nothing painted', () => {
    expect(visualCheck(before, null, { clients: CLIENTS })).toEqual({
      failures: [],
      notes: [{ family: 'visual', check: 'divergence', reason: VISUAL_NO_BASELINE_REASON }],
    });
    expect(visualCheck(null, before, { clients: CLIENTS })).toEqual({
      failures: [],
      notes: [{ family: 'visual', check: 'divergence', reason: VISUAL_NOT_PAINTED_REASON }],
    });
  });

  it('names every region, largest first and at most five, when the client added none', () => {
    const regions = [10, 60, 30, 50, 20, 40].map((size, i) => region(0, i * 100, size, size, `td:nth-child(${i + 1})`));
    const named = newRegions(regions, regions);
    expect(named).toHaveLength(GATE_VISUAL_MAX_REGIONS);
    expect(named.map((r) => r.box.width)).toEqual([60, 50, 40, 30, 20]);
  });
});

describe('gateVerdict with visual', () => {
  const result = analyze(email('<p>hello</p>'), ['gmail-web', 'outlook-windows-legacy']);
  const before = snapshot({ 'gmail-web': 2, 'outlook-windows-legacy': 4 });

  it('is opt-in: not run by default, run last when asked, its failures failing the verdict', () => {
    expect(gateVerdict({ result }).checks).toEqual(['compatibility', 'content', 'regression', 'message']);
    const now = snapshot({ 'gmail-web': 2, 'outlook-windows-legacy': 40 }, { 'outlook-windows-legacy': [region(0, 0, 600, 200, 'div.hero')] });
    const verdict = gateVerdict({
      result,
      snapshot: gateSnapshot(result),
      options: { checks: ['compatibility', 'visual'], threshold: 0 },
      visual: { current: now, baseline: before },
    });
    expect(verdict.checks).toEqual(['compatibility', 'visual']);
    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toMatchObject([{ family: 'visual', check: 'divergence', clientId: 'outlook-windows-legacy', score: 40, baselineScore: 4 }]);
    expect(gateVerdict({ result, options: { checks: ['visual'], visualThreshold: 40 }, visual: { current: now, baseline: before } }).passed).toBe(true);
  });

  it('passes with a note on the first measured version', () => {
    const verdict = gateVerdict({ result, options: { checks: ['visual'] }, visual: { current: before, baseline: null } });
    expect(verdict).toMatchObject({ passed: true, failures: [], notes: [{ family: 'visual', reason: VISUAL_NO_BASELINE_REASON }] });
  });
});
