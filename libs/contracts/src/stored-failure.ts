/**
 * Why a preview or a gate run ended without a result, as its row stores it (previews.failure,
 * gate_runs.failure): a problem code (compile_failed, payload_too_large, url_declined, url_unreachable,
 * internal_error), the compiler's message or one of the workers' fixed sentences, and where in the
 * source when the compiler said so. The API turns it into a problem (problemForFailure).
 */
export interface StoredFailure {
  code: string;
  message: string;
  /** compile_failed of a message (format eml): what is wrong with it, a stable id (`not_a_message`, `too_many_parts`; docs/messages.md). */
  reason?: string;
  line?: number;
  column?: number;
}
