import fc from 'fast-check';
import type { ClientId } from '../clients/email-client';
import { diffAnalyses } from './diff-analyses';
import { findingKey, gateSnapshot, type GateFinding, type GateSnapshot } from './gate-snapshot';
import { analyze, email } from './testing/gate-fixtures';

/** Clients where the plain fixture has info notes only (see gate-fixtures.ts). */
const CLIENTS: ClientId[] = ['apple-mail-ios', 'gmail-web', 'outlook-windows-legacy', 'yahoo-mail'];
const snap = (body: string, clients: readonly ClientId[] = CLIENTS) => gateSnapshot(analyze(email(body), clients));

const FLEX = '<div style="display:flex">columns</div>';
const RADIUS = '<div style="border-radius:4px">button</div>';
const SVG = '<svg width="10" height="10"></svg>';

describe('gateSnapshot', () => {
  it('keeps per-client scores and counts, and only the distinct error and warning findings, sorted', () => {
    const result = analyze(email(FLEX + RADIUS + SVG + RADIUS), CLIENTS);
    const snapshot = gateSnapshot(result);
    expect(snapshot.version).toBe(1);
    expect(snapshot.overallScore).toBe(result.overallScore);
    expect(Object.keys(snapshot.clients)).toEqual([...CLIENTS].sort());
    for (const id of CLIENTS) expect(snapshot.clients[id]).toEqual(result.compatibilityScores[id]);
    expect(snapshot.findings.every((f) => f.severity === 'error' || f.severity === 'warning')).toBe(true);
    expect(new Set(snapshot.findings.map(findingKey)).size).toBe(snapshot.findings.length);
    expect(snapshot.findings).toContainEqual({ clientId: 'outlook-windows-legacy', property: 'display:flex', rule: 'css-display-flex', severity: 'error' });
    expect(snapshot.findings).toContainEqual({ clientId: 'outlook-windows-legacy', property: 'border-radius', rule: 'css-border-radius', severity: 'warning' });
    expect(snapshot.findings).toContainEqual({ clientId: 'gmail-web', property: '<svg>', rule: 'html-svg', severity: 'error' });
    // Per client, the findings match the counts the score is made of.
    for (const id of CLIENTS) {
      const own = snapshot.findings.filter((f) => f.clientId === id);
      expect(own.filter((f) => f.severity === 'error')).toHaveLength(snapshot.clients[id].errors);
      expect(own.filter((f) => f.severity === 'warning')).toHaveLength(snapshot.clients[id].warnings);
    }
    const sorted = [...snapshot.findings].sort((a, b) => (a.clientId + a.property < b.clientId + b.property ? -1 : 1));
    expect(snapshot.findings.map((f) => f.clientId)).toEqual(sorted.map((f) => f.clientId));
  });

  it('is small, JSON-serializable and deterministic', () => {
    const snapshot = snap(FLEX + SVG);
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(JSON.stringify(snap(FLEX + SVG))).toBe(JSON.stringify(snapshot));
    const full = gateSnapshot(analyze(email(FLEX + RADIUS + SVG)));
    expect(JSON.stringify(full).length).toBeLessThan(8000);
  });

  it('has no findings for an email with info notes only', () => {
    const snapshot = snap('');
    expect(snapshot.findings).toEqual([]);
    expect(Object.values(snapshot.clients).some((c) => c.info > 0)).toBe(true);
  });

  it('reads a stored result (JSON) like the engine object, and computes overallScore when it is missing', () => {
    const result = analyze(email(RADIUS), CLIENTS);
    const stored = JSON.parse(JSON.stringify({ id: 'prv_1', ...result }));
    expect(gateSnapshot(stored)).toEqual(gateSnapshot(result));
    const { overallScore: _omitted, ...withoutOverall } = stored;
    expect(gateSnapshot(withoutOverall).overallScore).toBe(result.overallScore);
  });
});

describe('diffAnalyses', () => {
  it('reports fixed, introduced and unchanged findings and score deltas per client', () => {
    const before = snap(FLEX + RADIUS);
    const after = snap(RADIUS + SVG);
    const diff = diffAnalyses(before, after);
    expect(diff.clients.map((c) => c.clientId)).toEqual([...CLIENTS].sort());
    const outlook = diff.clients.find((c) => c.clientId === 'outlook-windows-legacy');
    expect(outlook).toMatchObject({ presence: 'both', scoreBefore: 87, scoreAfter: 87, scoreDelta: 0 });
    expect(outlook?.fixed).toEqual([{ clientId: 'outlook-windows-legacy', property: 'display:flex', rule: 'css-display-flex', severity: 'error' }]);
    expect(outlook?.introduced).toEqual([{ clientId: 'outlook-windows-legacy', property: '<svg>', rule: 'html-svg', severity: 'error' }]);
    expect(outlook?.unchanged).toEqual([{ clientId: 'outlook-windows-legacy', property: 'border-radius', rule: 'css-border-radius', severity: 'warning' }]);
    const gmail = diff.clients.find((c) => c.clientId === 'gmail-web');
    expect(gmail).toMatchObject({ scoreBefore: 100, scoreAfter: 90, scoreDelta: -10, fixed: [], unchanged: [] });
    expect(diff.summary).toEqual({
      improved: [],
      regressed: ['gmail-web', 'yahoo-mail'],
      unchanged: ['apple-mail-ios', 'outlook-windows-legacy'],
      added: [],
      removed: [],
      meanDelta: -5,
    });
  });

  it('counts a fix as an improvement', () => {
    const diff = diffAnalyses(snap(FLEX), snap(''));
    expect(diff.summary.improved).toEqual(['outlook-windows-legacy']);
    expect(diff.summary.meanDelta).toBe(2.5);
  });

  it('reports clients present on one side only instead of failing', () => {
    const before = snap(SVG, ['gmail-web', 'apple-mail-ios']);
    const after = snap(SVG, ['gmail-web', 'yahoo-mail']);
    const diff = diffAnalyses(before, after);
    expect(diff.clients.map((c) => [c.clientId, c.presence, c.scoreBefore, c.scoreAfter, c.scoreDelta])).toEqual([
      ['apple-mail-ios', 'before-only', 100, null, null],
      ['gmail-web', 'both', 90, 90, 0],
      ['yahoo-mail', 'after-only', null, 90, null],
    ]);
    expect(diff.clients[2].introduced).toEqual([{ clientId: 'yahoo-mail', property: '<svg>', rule: 'html-svg', severity: 'error' }]);
    expect(diff.summary).toMatchObject({ added: ['yahoo-mail'], removed: ['apple-mail-ios'], unchanged: ['gmail-web'], meanDelta: 0 });
  });

  it('keys findings by client, property and severity: a renamed rule is unchanged, a new severity is introduced', () => {
    const base: GateSnapshot = {
      version: 1,
      overallScore: 97,
      clients: { 'gmail-web': { score: 97, errors: 0, warnings: 1, info: 0 } },
      findings: [{ clientId: 'gmail-web', property: 'gap', rule: 'css-gap', severity: 'warning' }],
    };
    const renamed = { ...base, findings: [{ ...base.findings[0], rule: 'css-gap-2' }] };
    expect(diffAnalyses(base, renamed).clients[0]).toMatchObject({ fixed: [], introduced: [], unchanged: [renamed.findings[0]] });
    const worse: GateSnapshot = {
      ...base,
      clients: { 'gmail-web': { score: 90, errors: 1, warnings: 0, info: 0 } },
      findings: [{ ...base.findings[0], severity: 'error' }],
    };
    const diff = diffAnalyses(base, worse).clients[0];
    expect(diff.introduced.map((f) => f.severity)).toEqual(['error']);
    expect(diff.fixed.map((f) => f.severity)).toEqual(['warning']);
  });
});

describe('diffAnalyses properties (fast-check)', () => {
  const clientId = fc.constantFrom('gmail-web', 'outlook-web', 'yahoo-mail', 'apple-mail-ios', 'x-unknown');
  const finding: fc.Arbitrary<GateFinding> = fc.record({
    clientId,
    property: fc.constantFrom('display:flex', 'border-radius', '<svg>', 'gap', 'rem unit'),
    rule: fc.constantFrom('css-a', 'css-b'),
    severity: fc.constantFrom<'error' | 'warning'>('error', 'warning'),
  });
  const snapshot: fc.Arbitrary<GateSnapshot> = fc
    .tuple(
      fc.uniqueArray(clientId, { maxLength: 5 }),
      fc.array(finding, { maxLength: 20 }),
      fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 5, maxLength: 5 }),
    )
    .map(([clients, findings, scores]) => {
      const distinct = new Map(findings.map((f) => [findingKey(f), f]));
      const map: GateSnapshot['clients'] = {};
      clients.forEach((id, i) => (map[id] = { score: scores[i], errors: 0, warnings: 0, info: 0 }));
      return { version: 1 as const, overallScore: 0, clients: map, findings: [...distinct.values()] };
    });
  const keys = (findings: GateFinding[]) => findings.map(findingKey);

  it('a snapshot compared with itself has nothing fixed or introduced', () => {
    fc.assert(
      fc.property(snapshot, (s) => {
        const diff = diffAnalyses(s, s);
        expect(diff.clients.every((c) => c.fixed.length === 0 && c.introduced.length === 0)).toBe(true);
        expect(diff.summary.improved).toEqual([]);
        expect(diff.summary.regressed).toEqual([]);
        expect(diff.summary.meanDelta).toBe(0);
      }),
    );
  });

  it('introduced(a, b) equals fixed(b, a), and unchanged is the same both ways', () => {
    fc.assert(
      fc.property(snapshot, snapshot, (a, b) => {
        const ab = diffAnalyses(a, b);
        const ba = diffAnalyses(b, a);
        expect(ab.clients.map((c) => c.clientId)).toEqual(ba.clients.map((c) => c.clientId));
        ab.clients.forEach((c, i) => {
          expect(keys(c.introduced)).toEqual(keys(ba.clients[i].fixed));
          expect(keys(c.fixed)).toEqual(keys(ba.clients[i].introduced));
          expect(keys(c.unchanged)).toEqual(keys(ba.clients[i].unchanged));
        });
        expect(ab.summary.improved).toEqual(ba.summary.regressed);
        expect(ab.summary.added).toEqual(ba.summary.removed);
        expect(ab.summary.meanDelta).toBe(-ba.summary.meanDelta || 0);
      }),
    );
  });

  it('holds on real analyses too', () => {
    const bodies = ['', FLEX, RADIUS, SVG, FLEX + SVG, '<p style="font-size:1rem">x</p>'];
    const snapshots = bodies.map((body) => snap(body));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bodies.length - 1 }), fc.integer({ min: 0, max: bodies.length - 1 }), (i, j) => {
        const ab = diffAnalyses(snapshots[i], snapshots[j]);
        const ba = diffAnalyses(snapshots[j], snapshots[i]);
        ab.clients.forEach((c, k) => expect(keys(c.introduced)).toEqual(keys(ba.clients[k].fixed)));
        if (i === j) expect(ab.clients.every((c) => c.introduced.length + c.fixed.length === 0)).toBe(true);
      }),
      { numRuns: 36 },
    );
  });
});
