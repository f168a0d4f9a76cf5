// Entry bundled by scripts/bench-engine.js: the three workloads the benchmark compares.
import { parse, serialize } from 'parse5';
import { CLIENT_IDS, analyzeEmail } from '../libs/engine/src';

export const clientCount = CLIENT_IDS.length;

/** Mailproof's full analysis: cssReport, 21 transforms, 21 dark variants and scores. */
export function mailproof(html: string): unknown {
  return analyzeEmail(html, { format: 'html' });
}

/** The floor: a bare parse and one serialisation per client. */
export function floor(html: string): number {
  const document = parse(html);
  let length = 0;
  for (let i = 0; i < CLIENT_IDS.length; i++) length += serialize(document).length;
  return length;
}
