import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class ClientScore {
  @ApiProperty({ minimum: 0, maximum: 100 }) score: number;
  @ApiProperty() errors: number;
  @ApiProperty() warnings: number;
  @ApiProperty() info: number;
}

class CodeFix {
  @ApiProperty() before: string;
  @ApiProperty() after: string;
  @ApiProperty({ example: 'html' }) language: string;
  @ApiProperty() description: string;
}

class CssFinding {
  @ApiProperty({ enum: ['error', 'warning', 'info'] }) severity: string;
  @ApiProperty() client: string;
  @ApiProperty() property: string;
  @ApiProperty() message: string;
  @ApiProperty() suggestion: string;
  @ApiPropertyOptional({ type: CodeFix }) fix?: CodeFix;
  @ApiPropertyOptional() line?: number;
  @ApiPropertyOptional() column?: number;
}

class ClientTransform {
  @ApiProperty() clientId: string;
  @ApiProperty({ description: 'The markup as this client delivers it.' }) html: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) warnings: object[];
}

/** The preview result: per-client transforms, scores and dark-mode variants, the CSS findings and every quality report. */
export class PreviewResponse {
  @ApiProperty({ example: 'prv_3kTq9xV2bN7mLp4Rz8sWc1Ya' }) id: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) overallScore: number;
  @ApiProperty({ type: [ClientTransform] }) transforms: ClientTransform[];
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/ClientScore' } })
  compatibilityScores: Record<string, ClientScore>;
  @ApiProperty({ type: [CssFinding] }) cssReport: CssFinding[];
  @ApiProperty({ type: Object, description: 'Per client id: { html, warnings }.' }) darkMode: Record<string, unknown>;
  @ApiPropertyOptional({ type: Object, description: '"<clientId>-light|dark" to PNG URL; present when rendering finished in time.' })
  screenshots?: Record<string, string>;
  @ApiPropertyOptional({ type: String, description: 'The compiled HTML, for jsx, mjml and maizzle input.' }) compiledHtml?: string;
  @ApiProperty({ type: Object, nullable: true }) spamReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) sizeReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) linkReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) accessibilityReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) imageReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) inboxPreview: object | null;
  @ApiProperty({ type: Object, nullable: true }) templateReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) overflowReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) visualReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) darkContrast: object | null;
  @ApiProperty({ type: Object, nullable: true }) mobileContrast: object | null;
  @ApiProperty({ type: Object, nullable: true }) designReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) vmlReport: object | null;
  @ApiProperty({ type: Object, nullable: true }) plainText: object | null;
}

export { ClientScore };

class PreviewListItem {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String }) title: string | null;
  @ApiProperty({ nullable: true, type: Number }) overallScore: number | null;
  @ApiProperty({ enum: ['queued', 'completed', 'failed'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class PreviewListResponse {
  @ApiProperty({ type: [PreviewListItem] }) previews: PreviewListItem[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() total: number;
}
