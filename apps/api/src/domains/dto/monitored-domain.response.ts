import { ApiProperty } from '@nestjs/swagger';
import type { CheckedDeliverabilityResult, DeliverabilityResult, LastDrift } from '@mailproof/contracts';
import type { DomainAuditEntity, DriftEventEntity, MonitoredDomainEntity } from '@mailproof/persistence';

/** A monitored domain: its last conclusive audit, its status from that score and its latest drift. */
export class MonitoredDomainResponse {
  @ApiProperty() id: string;
  @ApiProperty() domain: string;
  @ApiProperty({ type: [String] }) dkimSelectors: string[];
  @ApiProperty({ nullable: true, type: Number, description: 'DNS health score of the last conclusive audit.' }) score: number | null;
  @ApiProperty({
    enum: ['pending', 'healthy', 'degraded', 'failing'],
    description: 'pending until the first audit; then healthy >= 80, degraded >= 50, failing below.',
  })
  status: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Why the status did not move when the last audit got no DNS answers (it stays pending, or keeps the last conclusive status); null after a conclusive audit.',
  })
  statusReason: string | null;
  @ApiProperty({ nullable: true, type: String }) lastCheckedAt: string | null;
  @ApiProperty({ nullable: true, type: Object, description: 'The last conclusive audit result (POST /api/deliverability shape).' })
  lastResult: CheckedDeliverabilityResult | null;
  @ApiProperty({ nullable: true, type: Object, description: '{ detectedAt, auditId, events } of the latest audit that found drift.' })
  lastDrift: LastDrift | null;
  @ApiProperty() createdAt: string;

  static from(entity: MonitoredDomainEntity): MonitoredDomainResponse {
    return {
      id: entity.id,
      domain: entity.domain,
      dkimSelectors: entity.dkimSelectors,
      score: entity.score,
      status: entity.status,
      statusReason: entity.statusReason,
      lastCheckedAt: entity.lastCheckedAt?.toISOString() ?? null,
      lastResult: entity.lastResult,
      lastDrift: entity.lastDrift,
      createdAt: entity.createdAt.toISOString(),
    };
  }
}

export class MonitoredDomainListResponse {
  @ApiProperty({ type: [MonitoredDomainResponse] }) domains: MonitoredDomainResponse[];
  @ApiProperty({ description: 'How many domains this account may monitor on its plan.' }) limit: number;
}

export class DomainAuditResponse {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['domain-added', 'schedule'] }) trigger: string;
  @ApiProperty() checkedAt: string;
  @ApiProperty({ nullable: true, type: Number, description: 'null when the audit is inconclusive.' }) score: number | null;
  @ApiProperty({ description: 'Every lookup failed: the audit says nothing about the domain and moved nothing.' }) inconclusive: boolean;
  @ApiProperty({ type: Object }) result: DeliverabilityResult;

  static from(entity: DomainAuditEntity): DomainAuditResponse {
    return {
      id: entity.id,
      trigger: entity.trigger,
      checkedAt: entity.checkedAt.toISOString(),
      score: entity.score,
      inconclusive: entity.inconclusive,
      result: entity.result,
    };
  }
}

export class DriftEventResponse {
  @ApiProperty() id: string;
  @ApiProperty() auditId: string;
  @ApiProperty({ nullable: true, type: String }) previousAuditId: string | null;
  @ApiProperty({ example: 'dmarc_policy' }) kind: string;
  @ApiProperty({ enum: ['mx', 'spf', 'dkim', 'dmarc', 'bimi', 'score'] }) check: string;
  @ApiProperty({ nullable: true }) previous: unknown;
  @ApiProperty({ nullable: true }) current: unknown;
  @ApiProperty() message: string;
  @ApiProperty() detectedAt: string;

  static from(entity: DriftEventEntity): DriftEventResponse {
    return {
      id: entity.id,
      auditId: entity.auditId,
      previousAuditId: entity.previousAuditId,
      kind: entity.kind,
      check: entity.check,
      previous: entity.previous,
      current: entity.current,
      message: entity.message,
      detectedAt: entity.detectedAt.toISOString(),
    };
  }
}

export class DomainHistoryResponse {
  @ApiProperty() domain: MonitoredDomainResponse;
  @ApiProperty({ type: [DomainAuditResponse], description: 'Newest first.' }) audits: DomainAuditResponse[];
  @ApiProperty({ type: [DriftEventResponse], description: 'Newest first.' }) driftEvents: DriftEventResponse[];
}
