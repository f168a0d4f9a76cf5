/**
 * The part of a preview result the gate reads, small enough to store beside every analysis and read
 * back in a few milliseconds: per client scores, the blocking CSS findings, and the link, size and
 * image entries the content checks look at, and a message's bulk-sender checklist. `gateVerdict` and `gateSnapshot` give the same answer on
 * the summary as on the whole result (a property the spec checks), without parsing ~700 KB of JSON.
 */
import type { CssFinding } from '../analysis/css-finding';
import type { ImageEntry, ImageReport } from '../reports/image-report';
import type { LinkEntry, LinkReport } from '../reports/link-report';
import type { SizeReport } from '../reports/size-report';
import { isBlockingSeverity, type GateResult } from './gate-snapshot';
import type { GateMessageInput } from './message-check';

type SummaryFinding = Pick<CssFinding, 'client' | 'property' | 'rule' | 'severity'>;
type SummaryLink = Pick<LinkEntry, 'href' | 'scheme' | 'host' | 'rules'>;
type SummaryImage = Pick<ImageEntry, 'src' | 'kind' | 'rules' | 'width' | 'height'>;

export interface GateSummary {
  overallScore?: number;
  compatibilityScores: GateResult['compatibilityScores'];
  cssReport: SummaryFinding[];
  linkReport: { links: SummaryLink[] } | null;
  sizeReport: Pick<SizeReport, 'bytes' | 'limit' | 'clippingRisk'> | null;
  imageReport: { images: SummaryImage[] } | null;
  /** A whole message's bulk-sender checklist (the message check reads nothing else); absent for other formats. */
  messageReport?: GateMessageInput | null;
  /**
   * Findings the safe fixes target (`safeFixTargetCount`): 0 tells a failed verdict that it has no suggested fix
   * to compute. Set by the worker beside the summary; absent on summaries stored before it (computed then).
   */
  safeFixTargets?: number;
}

/** The summary of a result (the engine's analysis or its stored JSON). */
export function gateSummary(result: GateResult): GateSummary {
  const summary: GateSummary = {
    compatibilityScores: result.compatibilityScores,
    cssReport: result.cssReport
      .filter((finding) => isBlockingSeverity(finding.severity))
      .map(({ client, property, rule, severity }) => ({ client, property, rule, severity })),
    linkReport: result.linkReport ? { links: result.linkReport.links.map(({ href, scheme, host, rules }) => ({ href, scheme, host, rules })) } : null,
    sizeReport: result.sizeReport ? { bytes: result.sizeReport.bytes, limit: result.sizeReport.limit, clippingRisk: result.sizeReport.clippingRisk } : null,
    imageReport: result.imageReport
      ? { images: result.imageReport.images.map(({ src, kind, rules, width, height }) => ({ src, kind, rules, width, height })) }
      : null,
  };
  if (typeof result.overallScore === 'number') summary.overallScore = result.overallScore;
  if (result.messageReport) summary.messageReport = { bulkSender: result.messageReport.bulkSender };
  return summary;
}

/**
 * A stored summary as the gate's input. The verdict reads only the fields the summary keeps, so the
 * narrower report shapes stand in for the full ones.
 */
export function gateResultOf(summary: GateSummary): GateResult {
  return {
    ...summary,
    cssReport: summary.cssReport as CssFinding[],
    linkReport: summary.linkReport as LinkReport | null,
    sizeReport: summary.sizeReport as SizeReport | null,
    imageReport: summary.imageReport as ImageReport | null,
  };
}
