import { ApiProperty } from '@nestjs/swagger';

class DnsCheckResponse {
  @ApiProperty({ enum: ['pass', 'warn', 'fail', 'skip'] }) status: 'pass' | 'warn' | 'fail' | 'skip';
  @ApiProperty() message: string;
}

class DnsChecksResponse {
  @ApiProperty() mx: DnsCheckResponse;
  @ApiProperty() spf: DnsCheckResponse;
  @ApiProperty() dkim: DnsCheckResponse;
  @ApiProperty() dmarc: DnsCheckResponse;
  @ApiProperty() bimi: DnsCheckResponse;
}

class DnsIssueResponse {
  @ApiProperty({ enum: ['mx', 'spf', 'dkim', 'dmarc', 'bimi'] }) check: string;
  @ApiProperty({ example: 'spf_too_many_lookups' }) rule: string;
  @ApiProperty({ enum: ['error', 'warning', 'info'] }) severity: string;
  @ApiProperty() message: string;
}

/** A DNS audit: domain, score and the SPF, DKIM, DMARC, MX and BIMI summaries, plus a status and message per check and the issues found. */
export class DeliverabilityResponse {
  @ApiProperty() domain: string;
  @ApiProperty({ minimum: 0, maximum: 100, nullable: true, type: Number, description: 'null when the audit is inconclusive (no lookup answered).' }) score: number | null;
  @ApiProperty({
    example: { valid: true, record: 'v=spf1 include:_spf.example.net -all', lookups: 3, voidLookups: 0, result: 'fail' },
    description: 'result: the SPF result (RFC 7208 2.6) a server the record does not list gets; "" when it depends on the message.',
  })
  spf: { valid: boolean; record: string; lookups: number; voidLookups: number; result: string };
  @ApiProperty({ example: { valid: true, selector: 'selector1', keys: [{ selector: 'selector1', keyType: 'rsa', bits: 2048, revoked: false, testing: false }] } })
  dkim: { valid: boolean; selector: string; keys: Array<{ selector: string; keyType: string; bits: number | null; revoked: boolean; testing: boolean }> };
  @ApiProperty({ example: { valid: true, policy: 'reject', record: 'v=DMARC1; p=reject', foundAt: '_dmarc.example.com' } })
  dmarc: { valid: boolean; policy: string; record: string; foundAt: string };
  @ApiProperty({ example: { valid: true, hosts: ['mx1.example.com'] } }) mx: { valid: boolean; hosts: string[] };
  @ApiProperty({ example: { valid: false, indicatorUrl: '', authorityUrl: '' } }) bimi: { valid: boolean; indicatorUrl: string; authorityUrl: string };
  @ApiProperty() checks: DnsChecksResponse;
  @ApiProperty({ type: [DnsIssueResponse] }) issues: DnsIssueResponse[];
  @ApiProperty({ description: 'When the audit ran (ISO 8601).' }) checkedAt: string;
  @ApiProperty({ description: 'True when no lookup answered (every check skipped): score is then null, since no number says anything about the domain; retry later.' })
  inconclusive: boolean;
}
