import { ApiProperty } from '@nestjs/swagger';

export class AccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['free', 'pro'] }) plan: 'free' | 'pro';
  @ApiProperty({
    minimum: 0,
    maximum: 365,
    description: "Days a preview's source, rendered markup, screenshots and shares are kept (0: never past the request's job chain; findings and scores stay).",
  })
  retentionDays: number;
  @ApiProperty({ description: 'The largest retentionDays this plan allows (free 30, pro 365).' }) maxRetentionDays: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class AccountErasureResponse {
  @ApiProperty({ format: 'uuid', description: 'The audit record the erasure keeps (no name, no key, no content).' }) erasureId: string;
  @ApiProperty({ description: 'Rows erased per table.', type: 'object', additionalProperties: { type: 'integer' } }) rowCounts: Record<string, number>;
}
