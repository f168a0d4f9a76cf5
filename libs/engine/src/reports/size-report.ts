/**
 * Size of the HTML as delivered. Gmail clips a message body past 102 KB behind "[Message clipped]
 * View entire message", which hides the rest (often the unsubscribe link and the open pixel).
 */
import type { ReportContext } from './context/report-context';
import { sortIssues, type ReportIssue } from './context/report-issue';
import { humanBytes, utf8Length } from './context/text-utils';
import { GMAIL_CLIP_LIMIT_BYTES } from '../clients/inbox-limits';

export { GMAIL_CLIP_LIMIT_BYTES };
/** Warn from 90% of the limit: ESPs add tracking and footers that push a near-limit email over. */
export const GMAIL_CLIP_WARNING_BYTES = Math.round(GMAIL_CLIP_LIMIT_BYTES * 0.9);
/** Gmail drops a whole `<style>` block larger than this. */
export const GMAIL_STYLE_BLOCK_LIMIT_BYTES = 16 * 1024;

/** The first two characters of a white-space run, then (sticky) the rest of it. */
const WHITESPACE_PAIR = /[ \t\n\r]{2}/g;
const WHITESPACE_REST = /[ \t\n\r]*/y;

export interface SizeReport {
  bytes: number;
  humanSize: string;
  limit: number;
  clippingRisk: boolean;
  /** 0-100+: share of Gmail's limit used. */
  percentOfLimit: number;
  /** Bytes inside `<style>` blocks, inline `style` attributes, and data: URIs. */
  breakdown: { styleBlocks: number; inlineStyles: number; dataUris: number; whitespace: number };
  issues: ReportIssue[];
}

export function buildSizeReport(context: ReportContext): SizeReport {
  const { doc } = context;
  const bytes = doc.parsed.byteLength;
  const issues: ReportIssue[] = [];
  let styleBlocks = 0;
  for (const block of context.sheet.blocks) {
    styleBlocks += block.bytes;
    if (block.bytes > GMAIL_STYLE_BLOCK_LIMIT_BYTES) {
      issues.push({
        rule: 'gmail-style-block-too-large',
        severity: 'warning',
        message: `This <style> block is ${humanBytes(block.bytes)}; Gmail ignores a block over 16 KB, so its rules (media queries included) are lost there. Split it or inline more.`,
        ...doc.position(block.element),
        element: '<style>',
      });
    }
  }
  let inlineStyles = 0;
  for (const style of doc.parsed.inlineStyles.values()) inlineStyles += utf8Length(style.value);
  let dataUris = 0;
  for (const image of context.images) if (image.isDataUri) dataUris += image.src.length;
  // Runs of white space beyond one character are what a minifier would remove. The regex engine finds
  // them faster than a loop over every character; test() and lastIndex give the run's extent without
  // allocating a match per run.
  let whitespace = 0;
  const source = doc.source;
  WHITESPACE_PAIR.lastIndex = 0;
  while (WHITESPACE_PAIR.test(source)) {
    WHITESPACE_REST.lastIndex = WHITESPACE_PAIR.lastIndex;
    WHITESPACE_REST.test(source);
    whitespace += WHITESPACE_REST.lastIndex - WHITESPACE_PAIR.lastIndex + 1;
    WHITESPACE_PAIR.lastIndex = WHITESPACE_REST.lastIndex;
  }

  const clippingRisk = bytes > GMAIL_CLIP_LIMIT_BYTES;
  if (clippingRisk) {
    issues.push({
      rule: 'gmail-clipped',
      severity: 'error',
      message: `The HTML is ${humanBytes(bytes)}, over Gmail's 102 KB limit: Gmail clips the message and hides everything after the cut, including the footer and unsubscribe link.`,
    });
  } else if (bytes > GMAIL_CLIP_WARNING_BYTES) {
    issues.push({
      rule: 'gmail-clip-warning',
      severity: 'warning',
      message: `The HTML is ${humanBytes(bytes)}, within 10% of Gmail's 102 KB clipping limit; tracking links and ESP footers added at send time can push it over.`,
    });
  }
  if ((clippingRisk || bytes > GMAIL_CLIP_WARNING_BYTES) && whitespace > bytes * 0.1) {
    issues.push({
      rule: 'minify-whitespace',
      severity: 'info',
      message: `About ${humanBytes(whitespace)} is repeated white space; minifying the HTML would save it.`,
    });
  }
  return {
    bytes,
    humanSize: humanBytes(bytes),
    limit: GMAIL_CLIP_LIMIT_BYTES,
    clippingRisk,
    percentOfLimit: Math.round((bytes / GMAIL_CLIP_LIMIT_BYTES) * 1000) / 10,
    breakdown: { styleBlocks, inlineStyles, dataUris, whitespace },
    issues: sortIssues(issues),
  };
}
