// Entry bundled by scripts/bench-engine.js: the three workloads the benchmark compares.
import { parse, serialize } from 'parse5';
import { CLIENT_IDS, analyzeEmail } from '../libs/engine/src';

export const clientCount = CLIENT_IDS.length;

/** Mailproof's full analysis: cssReport, 21 transforms, 21 dark variants, scores and every quality report. */
export function mailproof(html: string): unknown {
  return analyzeEmail(html, { format: 'html' });
}

/** The core alone (reports left null): the reports' cost is the difference to `mailproof`. */
export function mailproofCore(html: string): unknown {
  return analyzeEmail(html, { format: 'html', reports: false });
}

/** The floor: a bare parse and one serialisation per client. */
export function floor(html: string): number {
  const document = parse(html);
  let length = 0;
  for (let i = 0; i < CLIENT_IDS.length; i++) length += serialize(document).length;
  return length;
}
