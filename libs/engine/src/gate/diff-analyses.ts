/**
 * What changed between two analyses of an email, per client: findings fixed, introduced and unchanged,
 * and the score before, after and the difference. Used by the gate's regression check and the MCP
 * `diff_emails` tool. Pure and symmetric: introduced(a, b) is fixed(b, a).
 */
import { compareFindings, compareStrings, findingKey, type GateFinding, type GateSnapshot } from './gate-snapshot';

/** Whether the client was analyzed on both sides, or on one only (its findings are then all fixed or all introduced). */
export type ClientPresence = 'both' | 'before-only' | 'after-only';

export interface ClientDiff {
  clientId: string;
  presence: ClientPresence;
  /** Null on the side that did not analyze the client. */
  scoreBefore: number | null;
  scoreAfter: number | null;
  /** scoreAfter - scoreBefore; null unless presence is 'both'. */
  scoreDelta: number | null;
  /** Findings `before` had and `after` has not. */
  fixed: GateFinding[];
  /** Findings `after` has and `before` had not. */
  introduced: GateFinding[];
  /** Findings on both sides (as `after` has them). */
  unchanged: GateFinding[];
}

export interface AnalysisDiffSummary {
  /** Clients on both sides, by the sign of their score delta. */
  improved: string[];
  regressed: string[];
  unchanged: string[];
  /** Clients only `after` analyzed / only `before` analyzed. */
  added: string[];
  removed: string[];
  /** Mean score delta over the clients on both sides, one decimal; 0 when there are none. */
  meanDelta: number;
}

export interface AnalysisDiff {
  /** One entry per client of either side, in client-id order. */
  clients: ClientDiff[];
  summary: AnalysisDiffSummary;
}

/** One decimal, halves away from zero, so that swapping the sides only flips the sign; never -0. */
function roundOneDecimal(value: number): number {
  const rounded = Math.round(Math.abs(value) * 10) / 10;
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

function findingsByClient(snapshot: GateSnapshot): Map<string, GateFinding[]> {
  const byClient = new Map<string, GateFinding[]>();
  for (const clientId of Object.keys(snapshot.clients)) byClient.set(clientId, []);
  for (const finding of snapshot.findings) {
    const list = byClient.get(finding.clientId);
    if (list) list.push(finding);
    else byClient.set(finding.clientId, [finding]);
  }
  return byClient;
}

function scoreOf(snapshot: GateSnapshot, clientId: string): number | null {
  const client = snapshot.clients[clientId];
  return client && typeof client.score === 'number' ? client.score : null;
}

export function diffAnalyses(before: GateSnapshot, after: GateSnapshot): AnalysisDiff {
  const beforeFindings = findingsByClient(before);
  const afterFindings = findingsByClient(after);
  const clientIds = [...new Set([...beforeFindings.keys(), ...afterFindings.keys()])].sort(compareStrings);

  const clients: ClientDiff[] = [];
  const summary: AnalysisDiffSummary = { improved: [], regressed: [], unchanged: [], added: [], removed: [], meanDelta: 0 };
  let deltaSum = 0;
  let deltaCount = 0;
  for (const clientId of clientIds) {
    const was = beforeFindings.get(clientId);
    const is = afterFindings.get(clientId);
    const presence: ClientPresence = was && is ? 'both' : was ? 'before-only' : 'after-only';
    const wasKeys = new Set((was ?? []).map(findingKey));
    const isKeys = new Set((is ?? []).map(findingKey));
    const fixed = (was ?? []).filter((finding) => !isKeys.has(findingKey(finding))).sort(compareFindings);
    const introduced = (is ?? []).filter((finding) => !wasKeys.has(findingKey(finding))).sort(compareFindings);
    const unchanged = (is ?? []).filter((finding) => wasKeys.has(findingKey(finding))).sort(compareFindings);
    const scoreBefore = was ? scoreOf(before, clientId) : null;
    const scoreAfter = is ? scoreOf(after, clientId) : null;
    const scoreDelta = presence === 'both' && scoreBefore !== null && scoreAfter !== null ? scoreAfter - scoreBefore : null;
    clients.push({ clientId, presence, scoreBefore, scoreAfter, scoreDelta, fixed, introduced, unchanged });

    if (presence === 'after-only') summary.added.push(clientId);
    else if (presence === 'before-only') summary.removed.push(clientId);
    else if (scoreDelta === null || scoreDelta === 0) summary.unchanged.push(clientId);
    else if (scoreDelta > 0) summary.improved.push(clientId);
    else summary.regressed.push(clientId);
    if (scoreDelta !== null) {
      deltaSum += scoreDelta;
      deltaCount++;
    }
  }
  summary.meanDelta = deltaCount === 0 ? 0 : roundOneDecimal(deltaSum / deltaCount);
  return { clients, summary };
}
