export { gateSnapshot, findingKey, GATE_SNAPSHOT_VERSION } from './gate-snapshot';
export type { GateSnapshot, GateFinding, GateResult, BlockingSeverity } from './gate-snapshot';
export { diffAnalyses } from './diff-analyses';
export type { AnalysisDiff, AnalysisDiffSummary, ClientDiff, ClientPresence } from './diff-analyses';
export {
  gateVerdict,
  linkFailureReason,
  lacksAltText,
  GATE_CHECK_FAMILIES,
  GATE_DEFAULT_CHECKS,
  GATE_DEFAULT_THRESHOLD,
  GATE_SPACER_MAX_PX,
} from './gate-verdict';
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
  GateNote,
} from './gate-verdict';
export { messageCheck, BULK_SENDER_REQUIREMENT_IDS, NOT_A_MESSAGE_REASON, NOT_BULK_REASON } from './message-check';
export type { BulkSenderFailure, MessageNote, GateMessageInput, MessageCheckOutcome } from './message-check';
export {
  visualCheck,
  newRegions,
  referenceKeyFor,
  isGateVisualSnapshot,
  VISUAL_SCHEMES,
  GATE_VISUAL_DEFAULT_THRESHOLD,
  GATE_VISUAL_MAX_REFERENCE_CHANGE,
  GATE_VISUAL_MAX_REGIONS,
  GATE_VISUAL_MAX_ELEMENTS,
  VISUAL_NO_BASELINE_REASON,
  VISUAL_NOT_PAINTED_REASON,
} from './visual-check';
export type {
  GateVisualSnapshot,
  VisualBox,
  VisualCheckOptions,
  VisualCheckOutcome,
  VisualClientDivergence,
  VisualDivergenceMap,
  VisualNote,
  VisualReferenceKey,
  VisualViewport,
  VisualRegion,
  VisualRegressionFailure,
  VisualScheme,
} from './visual-check';
export {
  referenceFingerprint,
  referenceChange,
  isReferenceFingerprint,
  VISUAL_FINGERPRINT_TILE_PX,
  VISUAL_FINGERPRINT_MAX_ROWS,
  VISUAL_FINGERPRINT_TILE_DELTA,
} from './visual-fingerprint';
export type { ReferenceFingerprint, RgbaImage } from './visual-fingerprint';
export { gateSummary, gateResultOf } from './gate-summary';
export type { GateSummary } from './gate-summary';
export { analysisFailsGate, gateSuggestedFix, safeFixTargetCount } from './suggested-fix';
export type { GateSuggestedFix, GateSuggestedFixOptions, GateSuggestedFixRequest } from './suggested-fix';
