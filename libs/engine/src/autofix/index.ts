export { fixEmail } from './fix-email';
export { FIX_RULES } from './fix-rules';
export { FIX_TIERS } from './fix-model';
export type { AppliedFix, FixEmailOptions, FixResult, FixTally, FixTier, IntroducedFinding, SkippedFix } from './fix-model';
