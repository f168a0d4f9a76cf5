import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FIX_PATCHED, type FixPatched, type FixRunResult } from '@mailproof/contracts';
import {
  CLIENT_IDS,
  EMAIL_FORMATS,
  FIX_TIERS,
  type AppliedFix as EngineAppliedFix,
  type ClientId,
  type EmailFormat,
  type FixTally as EngineFixTally,
  type FixTier,
  type IntroducedFinding as EngineIntroducedFinding,
  type SkippedFix as EngineSkippedFix,
} from '@mailproof/engine';
import { CodeFix } from '../../previews/dto/preview.response';

class AppliedFix implements EngineAppliedFix {
  @ApiProperty({ example: 'layout-table-role@12', description: '`<rule>@<line>`, unique in the answer.' }) id: string;
  @ApiProperty({ example: 'layout-table-role' }) rule: string;
  @ApiProperty({ enum: FIX_TIERS }) tier: FixTier;
  @ApiProperty({ type: [String], enum: CLIENT_IDS, description: 'Requested clients this fix helps (whose finding it resolved).' }) clients: ClientId[];
  @ApiProperty({ description: '1-based line of the change in the markup that was patched.' }) line: number;
  @ApiProperty({ example: 'role="presentation" on a layout table' }) description: string;
  @ApiPropertyOptional({ type: CodeFix, description: 'jsx, mjml, maizzle: how to write this fix in the framework, so the next build keeps it.' })
  snippet?: CodeFix;
}

class SkippedFix implements EngineSkippedFix {
  @ApiProperty() rule: string;
  @ApiProperty() line: number;
  @ApiProperty({ description: 'Why it was not applied: rolled back (it would introduce a finding), or a suggestion only its author can make.' })
  reason: string;
}

class FixTally implements EngineFixTally {
  @ApiProperty({ minimum: 0, maximum: 100, description: 'The overall compatibility score of the requested clients.' }) score: number;
  @ApiProperty({ description: 'Error findings: cssReport for the requested clients plus the accessibility, VML, design and template reports.' })
  errors: number;
  @ApiProperty() warnings: number;
}

class IntroducedFinding implements EngineIntroducedFinding {
  @ApiProperty({ enum: ['css', 'accessibility', 'vml', 'design', 'template', 'size'] }) report: EngineIntroducedFinding['report'];
  @ApiProperty() rule: string;
  @ApiPropertyOptional({ enum: CLIENT_IDS }) client?: ClientId;
  @ApiProperty({ enum: ['error', 'warning'] }) severity: 'error' | 'warning';
  @ApiProperty() message: string;
}

/**
 * The answer of POST /api/fix and GET /api/fix/:id. It implements the contract's `FixRunResult`, so a
 * required field the engine's result gains fails to compile here until the OpenAPI document says so too.
 */
export class FixResponse implements FixRunResult {
  @ApiProperty({ example: 'fix_3kTq9xV2bN7mLp4Rz8sWc1Ya', description: 'The fix run (GET /api/fix/:id reads it again for 24 hours).' }) id: string;
  @ApiProperty({ enum: EMAIL_FORMATS }) format: EmailFormat;
  @ApiProperty({ enum: FIX_PATCHED, description: 'source: html is the submitted markup patched in place; compiled-html: html is the patched compiled HTML.' })
  patched: FixPatched;
  @ApiPropertyOptional({ description: 'Present when the patched email is the compiled HTML of a template: what to do with it.' }) note?: string;
  @ApiProperty({ description: 'The patched email: byte-identical to the input outside the applied fixes.' }) html: string;
  @ApiProperty({ description: 'Unified diff from the input to html; empty when nothing was applied.' }) diff: string;
  @ApiProperty({ type: [AppliedFix] }) applied: AppliedFix[];
  @ApiProperty({ type: [SkippedFix] }) skipped: SkippedFix[];
  @ApiProperty({ type: FixTally, description: 'Before the fixes.' }) before: FixTally;
  @ApiProperty({ type: FixTally, description: 'After the fixes, by analyzing the patched email again.' }) after: FixTally;
  @ApiProperty({ type: [IntroducedFinding], description: 'Always empty: a fix that would introduce a finding is rolled back and listed in skipped.' })
  introduced: IntroducedFinding[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Findings the applied fixes resolved, by rule.' })
  resolved: Record<string, number>;
}
