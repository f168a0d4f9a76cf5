import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MailproofConfig } from '@mailproof/config';
import { PreviewRepository, ShareRepository, type PreviewEntity, type ShareEntity } from '@mailproof/persistence';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import type { ShareResponse } from './dto/share.response';

export interface SharedPreview {
  share: ShareEntity;
  preview: PreviewEntity;
}

@Injectable()
export class SharesService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly previews: PreviewRepository,
    private readonly shares: ShareRepository,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Shares the account's own preview or an anonymous one; another account's preview is 404.
   * Sharing an anonymous preview keeps it alive as long as the link lives.
   */
  async create(account: AuthenticatedAccount, previewId: string): Promise<ShareResponse> {
    const preview = await this.previews.find(previewId);
    if (!preview || (preview.accountId !== null && preview.accountId !== account.accountId)) {
      throw new ProblemException('not_found', 'No preview with this id.');
    }
    // A preview past its retention has nothing left to show (docs/privacy.md); the sweep deleted its links too.
    if (preview.status === 'completed' && preview.result === null) {
      throw new ProblemException('content_gone', "This preview's content was removed (its account's retention, or retain: false); its score remains.", {
        id: preview.id,
        contentRemoved: true,
      });
    }
    const expiresAt = account.plan === 'pro' ? null : new Date(Date.now() + this.config.previews.shareTtlDaysFree * 86_400_000);
    const share = await this.shares.create(preview.id, account.accountId, expiresAt);
    if (preview.accountId === null && preview.expiresAt) {
      await this.dataSource.query(
        'UPDATE previews SET expires_at = CASE WHEN $2::timestamptz IS NULL THEN NULL ELSE GREATEST(expires_at, $2::timestamptz) END WHERE id = $1 AND expires_at IS NOT NULL',
        [preview.id, expiresAt],
      );
    }
    return { id: share.id, url: this.urlOf(share.id), expiresAt: expiresAt ? expiresAt.toISOString() : null };
  }

  /** The share and its preview when the link is live; null for unknown, malformed or expired links. */
  async findLive(id: string): Promise<SharedPreview | null> {
    const share = await this.shares.findActive(id);
    if (!share) return null;
    const preview = await this.previews.find(share.previewId);
    return preview ? { share, preview } : null;
  }

  urlOf(shareId: string): string {
    return `${this.config.http.publicBaseUrl}/share/${shareId}`;
  }
}
