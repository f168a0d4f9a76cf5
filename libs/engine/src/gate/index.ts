export { gateSnapshot, findingKey, GATE_SNAPSHOT_VERSION } from './gate-snapshot';
export type { GateSnapshot, GateFinding, GateResult, BlockingSeverity } from './gate-snapshot';
export { diffAnalyses } from './diff-analyses';
export type { AnalysisDiff, AnalysisDiffSummary, ClientDiff, ClientPresence } from './diff-analyses';
export { gateVerdict, linkFailureReason, lacksAltText, GATE_CHECK_FAMILIES, GATE_DEFAULT_THRESHOLD, GATE_SPACER_MAX_PX } from './gate-verdict';
export type {
  GateCheckFamily,
  GateOptions,
  GateBaseline,
  CheckedLink,
  GateVerdictInput,
  GateVerdict,
  GateFailure,
  LinkFailureReason,
  ThresholdFailure,
  ClientErrorsFailure,
  LinksFailure,
  SizeFailure,
  AltTextFailure,
  LinkUnreachableFailure,
  WorseThanBaselineFailure,
} from './gate-verdict';
export { messageCheck, BULK_SENDER_REQUIREMENT_IDS, NOT_A_MESSAGE_REASON, NOT_BULK_REASON } from './message-check';
export type { BulkSenderFailure, GateNote, GateMessageInput, MessageCheckOutcome } from './message-check';
export { gateSummary, gateResultOf } from './gate-summary';
export type { GateSummary } from './gate-summary';
export { gateSuggestedFix, safeFixTargetCount } from './suggested-fix';
export type { GateSuggestedFix, GateSuggestedFixOptions, GateSuggestedFixRequest } from './suggested-fix';
