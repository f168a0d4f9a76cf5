import { ApiProperty } from '@nestjs/swagger';

export class CreatedKeyResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The full key. Shown only in this response: store it now.' }) key: string;
  @ApiProperty({ description: 'First 12 characters, for recognizing the key later.' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

class UsageTotals {
  @ApiProperty() requests: number;
  @ApiProperty() previews: number;
  @ApiProperty() gates: number;
  @ApiProperty() deliverability: number;
  @ApiProperty() mcp: number;
  @ApiProperty({ description: 'POST /api/fix and GET /api/fix/:id (fix_email through MCP counts as mcp).' }) fixes: number;
}

class DailyUsage {
  @ApiProperty({ example: '2026-11-22' }) date: string;
  @ApiProperty() requests: number;
}

class KeyUsage {
  @ApiProperty({ type: UsageTotals }) last30Days: UsageTotals;
  @ApiProperty({ type: [DailyUsage], description: 'The last 30 UTC days, oldest first, days without requests included.' })
  daily: DailyUsage[];
}

export class KeySummary {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Updated at most once a minute.' })
  lastUsedAt: string | null;
  @ApiProperty({ type: KeyUsage }) usage: KeyUsage;
}

export class KeyListResponse {
  @ApiProperty({ type: [KeySummary] }) keys: KeySummary[];
}
