import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ShareEntity } from '../entities/share.entity';
import { OPAQUE_ID_PATTERN, opaqueId } from '../random-id';

@Injectable()
export class ShareRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(previewId: string, accountId: string, expiresAt: Date | null): Promise<ShareEntity> {
    const repo = this.dataSource.getRepository(ShareEntity);
    const share = repo.create({ id: opaqueId('shr'), previewId, accountId, expiresAt });
    await repo.insert(share);
    return share;
  }

  /** A share that exists and has not expired; null otherwise (unknown, malformed or expired alike). */
  async findActive(id: string, now = new Date()): Promise<ShareEntity | null> {
    if (!OPAQUE_ID_PATTERN.test(id) || !id.startsWith('shr_')) return null;
    const share = await this.dataSource.getRepository(ShareEntity).findOneBy({ id });
    if (!share || (share.expiresAt && share.expiresAt <= now)) return null;
    return share;
  }
}
