import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PreviewResult } from '@mailproof/contracts';
import type {
  ClientId,
  ClientTransform as EngineClientTransform,
  CodeFix as EngineCodeFix,
  CompatibilityScore,
  CssFinding as EngineCssFinding,
  Severity,
  TransformWarning,
} from '@mailproof/engine';

class ClientScore implements CompatibilityScore {
  @ApiProperty({ minimum: 0, maximum: 100 }) score: number;
  @ApiProperty() errors: number;
  @ApiProperty() warnings: number;
  @ApiProperty() info: number;
}

export class CodeFix implements EngineCodeFix {
  @ApiProperty() before: string;
  @ApiProperty() after: string;
  @ApiProperty({ enum: ['html', 'css', 'jsx', 'mjml', 'maizzle', 'js'], example: 'html' }) language: EngineCodeFix['language'];
  @ApiProperty() description: string;
}

class CssFinding implements EngineCssFinding {
  @ApiProperty({ enum: ['error', 'warning', 'info'] }) severity: Severity;
  @ApiProperty() client: ClientId;
  @ApiProperty() property: string;
  @ApiProperty() message: string;
  @ApiProperty() suggestion: string;
  @ApiPropertyOptional({ type: CodeFix }) fix?: CodeFix;
  @ApiPropertyOptional({
    description:
      'Position of the first use (1-based); for jsx, mjml and maizzle input, in the submitted source where the compiled element came from a source element.',
  })
  line?: number;
  @ApiPropertyOptional() column?: number;
  @ApiPropertyOptional({ description: 'jsx, mjml and maizzle input: the position in compiledHtml (1-based).' }) compiledLine?: number;
  @ApiPropertyOptional() compiledColumn?: number;
  @ApiProperty({ description: 'Stable rule id: the caniemail slug, or `unknown-property`.' }) rule: string;
  @ApiProperty({ description: 'How many times the email uses it.' }) occurrences: number;
}

class ClientTransform implements EngineClientTransform {
  @ApiProperty() clientId: ClientId;
  @ApiProperty({ description: 'The markup as this client delivers it.' }) html: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) warnings: TransformWarning[];
}

/**
 * The preview result: per-client transforms, scores and dark-mode variants, the CSS findings and every
 * quality report. It implements the contract's `PreviewResult`, so a field the result gains or loses
 * fails to compile here until the OpenAPI document says so too.
 */
export class PreviewResponse implements PreviewResult {
  @ApiProperty({ example: 'prv_3kTq9xV2bN7mLp4Rz8sWc1Ya' }) id: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) overallScore: number;
  @ApiProperty({ type: [ClientTransform] }) transforms: ClientTransform[];
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/ClientScore' } })
  compatibilityScores: Record<string, ClientScore>;
  @ApiProperty({ type: [CssFinding] }) cssReport: CssFinding[];
  @ApiProperty({ type: Object, description: 'Per client id: { html, warnings }.' }) darkMode: PreviewResult['darkMode'];
  @ApiPropertyOptional({
    type: Object,
    description:
      '"<clientId>-light|dark" to PNG URL, and the reference rendering (the email as written) as "reference-wide|mobile-light|dark" (docs/visual.md); present when rendering finished in time.',
  })
  screenshots?: Record<string, string>;
  @ApiPropertyOptional({ type: [String], description: 'Notes on the screenshots: cut at the height limit, images that stayed broken.' })
  screenshotNotes?: string[];
  @ApiPropertyOptional({ type: String, description: 'The compiled HTML, for jsx, mjml and maizzle input.' }) compiledHtml?: string;
  @ApiProperty({ type: Object, nullable: true }) spamReport: PreviewResult['spamReport'];
  @ApiProperty({ type: Object, nullable: true }) sizeReport: PreviewResult['sizeReport'];
  @ApiProperty({ type: Object, nullable: true }) linkReport: PreviewResult['linkReport'];
  @ApiProperty({ type: Object, nullable: true }) accessibilityReport: PreviewResult['accessibilityReport'];
  @ApiProperty({ type: Object, nullable: true }) imageReport: PreviewResult['imageReport'];
  @ApiProperty({ type: Object, nullable: true }) inboxPreview: PreviewResult['inboxPreview'];
  @ApiProperty({ type: Object, nullable: true }) templateReport: PreviewResult['templateReport'];
  @ApiProperty({ type: Object, nullable: true }) overflowReport: PreviewResult['overflowReport'];
  @ApiProperty({
    type: Object,
    nullable: true,
    description:
      '{ references, clients, divergence? }. divergence[clientId].light|dark: { score 0-100 (0 = identical to the reference rendering), regions: [{ box {x,y,width,height} in CSS px, kind "layout"|"color", elements [{ selector, line }], cause? { message, property?, behaviour? } }] }, compared with screenshots["reference-<wide|mobile>-<scheme>"] (docs/visual.md).',
  })
  visualReport: PreviewResult['visualReport'];
  @ApiProperty({ type: Object, nullable: true }) darkContrast: PreviewResult['darkContrast'];
  @ApiProperty({ type: Object, nullable: true }) mobileContrast: PreviewResult['mobileContrast'];
  @ApiProperty({ type: Object, nullable: true }) designReport: PreviewResult['designReport'];
  @ApiProperty({ type: Object, nullable: true }) vmlReport: PreviewResult['vmlReport'];
  @ApiProperty({ type: Object, nullable: true }) plainText: PreviewResult['plainText'];
  @ApiProperty({
    type: Object,
    nullable: true,
    description: "format eml: the whole message's headers, parts, authentication and bulk-sender checklist (docs/messages.md); null for other formats.",
  })
  messageReport: PreviewResult['messageReport'];
}

/** Compiles only while the DTO declares no field the contract's result lacks (`implements` checks the other way). */
type NoFieldBeyond<Undeclared extends never> = Undeclared;
export type PreviewResponseDeclaresOnlyResultFields = NoFieldBeyond<Exclude<keyof PreviewResponse, keyof PreviewResult>>;

export { ClientScore };

class PreviewListItem {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String }) title: string | null;
  @ApiProperty({ nullable: true, type: Number }) overallScore: number | null;
  @ApiProperty({ enum: ['queued', 'completed', 'failed'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

class ScreenshotFailure {
  @ApiProperty({ example: 'outlook-windows-legacy-dark' }) id: string;
  @ApiProperty({ example: 'the page did not finish painting within 15000 ms' }) reason: string;
}

/** `POST /api/preview/:id/screenshots`. */
export class ScreenshotsResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      'Every screenshot of the preview: "<clientId>-light|dark" to PNG URL, and the reference rendering (the email as written) as "reference-wide|mobile-light|dark" (docs/visual.md).',
  })
  screenshots: Record<string, string>;
  @ApiProperty({ enum: ['complete', 'partial', 'pending'] }) screenshotStatus: 'complete' | 'partial' | 'pending';
  @ApiProperty({ type: [String], description: 'Requested screenshots that exist now.' }) captured: string[];
  @ApiProperty({ type: [ScreenshotFailure], description: 'Requested screenshots that failed, with the reason.' }) failed: ScreenshotFailure[];
}

export class PreviewListResponse {
  @ApiProperty({ type: [PreviewListItem] }) previews: PreviewListItem[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() total: number;
}
