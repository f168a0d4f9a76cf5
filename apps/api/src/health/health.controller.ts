import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { QUEUE_NAMES } from '@mailproof/contracts';
import { JobProducer } from '@mailproof/queue';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly jobs: JobProducer,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'The process is up (no dependencies checked).' })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'PostgreSQL and Redis answer, and every queue has at least one live worker.' })
  ready() {
    return this.health.check([
      () => this.database.pingCheck('postgres', { timeout: CHECK_TIMEOUT_MS }),
      () => this.redis(),
      ...QUEUE_NAMES.map((queue) => () => this.workers(queue)),
    ]);
  }

  private async redis() {
    const indicator = this.indicators.check('redis');
    try {
      const client = await this.jobs.queue('preview').getBackend().client;
      // INFO is part of BullMQ's client interface (PING is not) and proves the server answers.
      const info = await withTimeout(client.info(), CHECK_TIMEOUT_MS, 'redis');
      const version = /redis_version:([^\r\n]+)/.exec(info)?.[1];
      return indicator.up({ version });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }

  private async workers(queue: (typeof QUEUE_NAMES)[number]) {
    const indicator = this.indicators.check(`queue:${queue}`);
    try {
      const workers = await withTimeout(this.jobs.queue(queue).getWorkersCount(), CHECK_TIMEOUT_MS, `queue ${queue}`);
      return workers > 0 ? indicator.up({ workers }) : indicator.down({ workers, message: 'no live worker consumes this queue' });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }
}
