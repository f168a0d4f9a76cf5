import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobProbeEntity } from '../entities/job-probe.entity';

@Injectable()
export class JobProbeRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Idempotent: a second delivery of the same job overwrites its own row. */
  async record(probe: JobProbeEntity): Promise<void> {
    await this.dataSource.getRepository(JobProbeEntity).upsert(probe, ['jobId']);
  }

  async find(jobId: string): Promise<JobProbeEntity | null> {
    return this.dataSource.getRepository(JobProbeEntity).findOneBy({ jobId });
  }
}
