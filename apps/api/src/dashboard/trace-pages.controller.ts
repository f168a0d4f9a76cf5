import { Controller, Get, Injectable, Logger, Param, Req, Res, type OnModuleDestroy } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MailproofConfig } from '@mailproof/config';
import { createRedisClient, requestPathRedisOptions, type RedisClient } from '@mailproof/queue';
import { TraceStore, traceStreamKey, waterfall, type TraceSubjectKind } from '@mailproof/tracing';
import { Authenticated } from '../auth/auth.decorators';
import { GateService } from '../gate/gate.service';
import { PreviewsService } from '../previews/previews.service';
import { accountOf, pageContext, sendNotFound, sendPage } from './dashboard-http';
import { tracePage } from './views/traces.view';

/** The embedded trace store's reader (docs/operations.md, "Tracing"); it has a Redis client only when that store is in use. */
@Injectable()
export class DashboardTraces implements OnModuleDestroy {
  private readonly logger = new Logger('DashboardTraces');
  private readonly redis: RedisClient | undefined;

  constructor(private readonly config: MailproofConfig) {
    if (this.shown) {
      // Connected now: request-path clients queue no command while they connect.
      this.redis = createRedisClient(config.redis, { ...requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs), lazyConnect: false });
      this.redis.on('error', (error) => this.logger.warn(`trace store redis: ${error.message}`));
    }
  }

  /** Whether the pages link to traces: only the embedded store is read here (a collector has its own UI). */
  get shown(): boolean {
    return this.config.tracing.mode === 'embedded';
  }

  async of(kind: TraceSubjectKind, id: string) {
    if (!this.redis) return { traceId: null, ...waterfall([]) };
    const store = new TraceStore(this.redis, traceStreamKey(this.config.queue.prefix));
    const traceId = await store.traceIdOf(kind, id);
    return { traceId, ...waterfall(traceId ? await store.spansOf(traceId) : []) };
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }
}

/** A preview's or gate run's trace as a waterfall, for the account that owns it. */
@ApiExcludeController()
@Authenticated()
@Controller('app/traces')
export class TracePagesController {
  constructor(
    private readonly traces: DashboardTraces,
    private readonly previews: PreviewsService,
    private readonly gate: GateService,
  ) {}

  @Get('previews/:id')
  async preview(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const preview = await this.previews.findOwned(id, accountOf(req));
    if (!preview) return sendNotFound(req, res, 'No saved preview with this id in your account.');
    const trace = await this.traces.of('preview', preview.id);
    sendPage(res, 200, tracePage(pageContext(req), { subject: { label: 'Preview', href: `/app/previews/${encodeURIComponent(preview.id)}` }, ...trace }));
  }

  @Get('gate-runs/:id')
  async gateRun(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const run = await this.gate.read(accountOf(req), id);
    if (!run) return sendNotFound(req, res, 'No gate run with this id in your account.');
    const trace = await this.traces.of('gate-run', id);
    sendPage(res, 200, tracePage(pageContext(req), { subject: { label: 'Gate run', href: `/app/gate/runs/${encodeURIComponent(id)}` }, ...trace }));
  }
}
