// Public API of @mailproof/engine: the pure analysis core.
export {
  analyzeEmail,
  analyzeEmailKeepingParts,
  analyzeParsedEmail,
  renderClientViews,
  renderEmailViews,
  resolveClients,
  EngineInputError,
} from './analyze-email';
export type { AnalysisParts, ClientRenderView, EmailRenderViews } from './analyze-email';
export { LINE_ATTRIBUTE } from './transforms/render-template';
export type { AnalyzeEmailOptions, PreviewAnalysis, ClientTransform, DarkModeResult } from './preview-analysis';
export { EngineError, EngineLimitError } from './errors';
export type { EngineLimitCode } from './errors';
export { ENGINE_LIMITS } from './limits';

export { CLIENT_IDS } from './clients/email-client';
export type { ClientId, ClientCategory, DarkModeBehavior, EmailClient } from './clients/email-client';
export { EMAIL_CLIENTS, getClient, isClientId } from './clients/email-clients';
export { listTrackedProperties } from './clients/tracked-properties';
export { CLIENT_MODELS } from './clients/models/client-models';
export type { ClientBehavior, ClientModel, Evidence, BehaviorKind } from './clients/models/client-behavior';
export { clientSummaries, describeClientModel } from './clients/models/describe-model';
export type { ClientModelDescription, ClientSummary } from './clients/models/describe-model';
export { checkFidelity } from './fidelity';
export { behaviourInventory, clientInventorySummary, inventoryCountsBySource, noteCoverage, SOURCES_READ_AT } from './clients/inventory/inventory';
export type { ClientInventorySummary } from './clients/inventory/inventory';
export type { InventoryCounts, InventoryDecision, InventoryRow, InventorySource } from './clients/inventory/inventory-types';
export type { FidelityResult } from './fidelity';
export type { TrackedProperty } from './clients/tracked-properties';
export { getClientSupport, CANIEMAIL_VERSION } from './clients/client-support';
export type { ClientSupport, SupportLevel } from './clients/client-support';
export { listTrackedFeatures, getTrackedFeature } from './clients/feature-catalog';
export type { TrackedFeature, FeatureKind } from './clients/feature-catalog';

export type { CssFinding, Severity } from './analysis/css-finding';
export { groupFindings, countBySeverity } from './analysis/finding-groups';
export type { FindingGroup } from './analysis/finding-groups';
export type { CodeFix, EmailFormat } from './fixes/code-fix';
export { EMAIL_FORMATS } from './fixes/code-fix';
export { scoreClients, overallScore } from './scores/compatibility-score';
export type { CompatibilityScore } from './scores/compatibility-score';
export type { TransformWarning } from './transforms/client-transform';

// The parse helpers (parse/) stay inside the engine: nothing outside it parses email markup (docs/engine.md).
// CSS colors and WCAG contrast, shared with libs/render's mobile-contrast report (measured in painted pages).
export { compositeOver, contrastRatio, displayedRatio, parseCssColor, WHITE } from './reports/context/color-utils';
export type { Rgba } from './reports/context/color-utils';

// The spam report's ground: SpamAssassin's published scores and the risk level of a SpamAssassin-scale score.
export { SPAMASSASSIN_REQUIRED_SCORE, SPAMASSASSIN_VERSION, spamRiskLevel } from './reports/spamassassin-scores';

// The pre-send gate: baseline snapshots, analysis diffs and the verdict (docs/engine.md, "The gate verdict").
export * from './gate';

// Compile errors shared with libs/sandbox, and the pure DNS evaluation (docs/compile.md, docs/deliverability.md).
export * from './compile';
export * from './dns';

// Auto-fix: deterministic fixes patched into the submitted text and proven by re-analysis (docs/fix.md).
export * from './autofix';

// Whole messages (format "eml"): parsing, its bounds and the message report (docs/messages.md).
export * from './message';
