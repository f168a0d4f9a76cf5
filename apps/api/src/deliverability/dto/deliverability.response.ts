import { ApiProperty } from '@nestjs/swagger';
import type { DeliverabilityAnswer } from '@mailproof/contracts';
import type {
  BimiSummary,
  DkimSummary,
  DmarcSummary,
  DnsCheck,
  DnsCheckName,
  DnsCheckStatus,
  DnsIssue,
  DnsIssueSeverity,
  MxSummary,
  SpfSummary,
} from '@mailproof/engine/dns';

class DnsCheckResponse implements DnsCheck {
  @ApiProperty({ enum: ['pass', 'warn', 'fail', 'skip'] }) status: DnsCheckStatus;
  @ApiProperty() message: string;
}

class DnsChecksResponse implements Record<DnsCheckName, DnsCheck> {
  @ApiProperty() mx: DnsCheckResponse;
  @ApiProperty() spf: DnsCheckResponse;
  @ApiProperty() dkim: DnsCheckResponse;
  @ApiProperty() dmarc: DnsCheckResponse;
  @ApiProperty() bimi: DnsCheckResponse;
}

class DnsIssueResponse implements DnsIssue {
  @ApiProperty({ enum: ['mx', 'spf', 'dkim', 'dmarc', 'bimi'] }) check: DnsCheckName;
  @ApiProperty({ example: 'spf_too_many_lookups' }) rule: string;
  @ApiProperty({ enum: ['error', 'warning', 'info'] }) severity: DnsIssueSeverity;
  @ApiProperty() message: string;
}

/**
 * A DNS audit: domain, score and the SPF, DKIM, DMARC, MX and BIMI summaries, plus a status and message per check and the issues found.
 * It implements the contract's `DeliverabilityAnswer`, so a field the engine's result gains fails to compile here until OpenAPI says so.
 */
export class DeliverabilityResponse implements DeliverabilityAnswer {
  @ApiProperty() domain: string;
  @ApiProperty({ minimum: 0, maximum: 100, nullable: true, type: Number, description: 'null when the audit is inconclusive (no lookup answered).' }) score:
    number | null;
  @ApiProperty({
    example: { valid: true, record: 'v=spf1 include:_spf.example.net -all', lookups: 3, lookupsComplete: true, voidLookups: 0, result: 'fail' },
    description:
      'result: the SPF result (RFC 7208 2.6) a server the record does not list gets; "" when it depends on the message. lookupsComplete: false when an include or redirect could not be read, so lookups is a lower bound and valid only says no permerror was found.',
  })
  spf: SpfSummary;
  @ApiProperty({
    example: { valid: true, selector: 'selector1', keys: [{ selector: 'selector1', keyType: 'rsa', bits: 2048, revoked: false, testing: false }] },
  })
  dkim: DkimSummary;
  @ApiProperty({ example: { valid: true, policy: 'reject', record: 'v=DMARC1; p=reject', foundAt: '_dmarc.example.com' } })
  dmarc: DmarcSummary;
  @ApiProperty({ example: { valid: true, hosts: ['mx1.example.com'] } }) mx: MxSummary;
  @ApiProperty({ example: { valid: false, indicatorUrl: '', authorityUrl: '' } }) bimi: BimiSummary;
  @ApiProperty() checks: DnsChecksResponse;
  @ApiProperty({ type: [DnsIssueResponse] }) issues: DnsIssueResponse[];
  @ApiProperty({ description: 'When the audit ran (ISO 8601).' }) checkedAt: string;
  @ApiProperty({
    description: 'True when no lookup answered (every check skipped): score is then null, since no number says anything about the domain; retry later.',
  })
  inconclusive: boolean;
}
