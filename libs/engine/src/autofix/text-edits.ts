import MagicString from 'magic-string';
import type { FixCandidate, TextEdit } from './fix-model';

/** Whether two edits touch the same characters (two insertions at one place do not: they are applied in order). */
function editsOverlap(a: TextEdit, b: TextEdit): boolean {
  if (a.start === a.end || b.start === b.end) return a.start > b.start && a.start < b.end ? true : b.start > a.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * Splits candidates into those that can be applied together and those that touch characters an
 * earlier one already changes (applied on the next pass, when they are found again on the result).
 */
export function partitionCandidates(candidates: readonly FixCandidate[]): { accepted: FixCandidate[]; deferred: FixCandidate[] } {
  const accepted: FixCandidate[] = [];
  const deferred: FixCandidate[] = [];
  const taken: TextEdit[] = [];
  for (const candidate of candidates) {
    if (candidate.edits.some((edit) => taken.some((other) => editsOverlap(edit, other)))) {
      deferred.push(candidate);
      continue;
    }
    accepted.push(candidate);
    taken.push(...candidate.edits);
  }
  return { accepted, deferred };
}

/**
 * The source with the candidates' edits applied. Edits name ranges of the original text, so each is
 * independent of the others; everything outside them is copied byte for byte.
 */
export function applyCandidates(source: string, candidates: readonly FixCandidate[]): string {
  if (candidates.length === 0) return source;
  const text = new MagicString(source);
  for (const candidate of candidates) {
    for (const edit of candidate.edits) {
      if (edit.start === edit.end) text.appendLeft(edit.start, edit.text);
      else if (edit.text === '') text.remove(edit.start, edit.end);
      else text.overwrite(edit.start, edit.end, edit.text);
    }
  }
  return text.toString();
}

const LINE_STARTS = new WeakMap<object, number[]>();

/** 1-based line of a string index of `owner`'s source (the line starts are indexed once per owner). */
export function lineAt(owner: { source: string }, index: number): number {
  let starts = LINE_STARTS.get(owner);
  if (!starts) {
    starts = [0];
    for (let i = owner.source.indexOf('\n'); i !== -1; i = owner.source.indexOf('\n', i + 1)) starts.push(i + 1);
    LINE_STARTS.set(owner, starts);
  }
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= index) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}
