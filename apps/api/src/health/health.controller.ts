import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { MailproofConfig } from '@mailproof/config';
import { QUEUE_NAMES } from '@mailproof/contracts';
import { JobProducer, withDeadline } from '@mailproof/queue';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: () => Promise<T>, ms: number, what: string): Promise<T> {
  return withDeadline(Promise.resolve().then(work), ms, () => new Error(`${what} did not answer within ${ms} ms`));
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly jobs: JobProducer,
    private readonly config: MailproofConfig,
  ) {}

  /** Redis checks end within REDIS_COMMAND_TIMEOUT_MS, so readiness reports an outage (and the recovery) at once. */
  private get redisTimeoutMs(): number {
    return Math.min(CHECK_TIMEOUT_MS, this.config.redis.commandTimeoutMs);
  }

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
      // The whole check is bounded: the client itself is not there yet while Redis has been down since start.
      // INFO is part of BullMQ's client interface (PING is not) and proves the server answers.
      const info = await withTimeout(async () => (await this.jobs.queue('preview').getBackend().client).info(), this.redisTimeoutMs, 'redis');
      const version = /redis_version:([^\r\n]+)/.exec(info)?.[1];
      return indicator.up({ version });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }

  private async workers(queue: (typeof QUEUE_NAMES)[number]) {
    const indicator = this.indicators.check(`queue:${queue}`);
    try {
      const workers = await withTimeout(() => this.jobs.queue(queue).getWorkersCount(), this.redisTimeoutMs, `queue ${queue}`);
      return workers > 0 ? indicator.up({ workers }) : indicator.down({ workers, message: 'no live worker consumes this queue' });
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : 'unreachable' });
    }
  }
}
