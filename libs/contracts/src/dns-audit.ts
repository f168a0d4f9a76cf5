/**
 * What a DNS audit stores (docs/deliverability.md): the engine's `DeliverabilityResult` in
 * domain_audits.result, and the last conclusive one with its time on monitored_domains.last_result.
 * An audit's result *is* the deliverability result (docs/architecture.md, Names).
 */
import type { DeliverabilityResult, DriftEvent } from '@mailproof/engine/dns';

export type { DeliverabilityResult } from '@mailproof/engine/dns';

/** A deliverability result with the time its audit ran (ISO 8601): a monitored domain's last conclusive result. */
export type CheckedDeliverabilityResult = DeliverabilityResult & { checkedAt: string };

/**
 * POST /api/deliverability's answer and the MCP tool check_deliverability's: the audit's result, when it
 * ran, and whether it was inconclusive (no lookup answered; score is then null).
 */
export type DeliverabilityAnswer = CheckedDeliverabilityResult & { inconclusive: boolean };

/** monitored_domains.last_drift: the latest audit that found drift, when it ran (ISO 8601) and what changed. */
export interface LastDrift {
  detectedAt: string;
  auditId: string;
  events: DriftEvent[];
}
