import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { MailproofConfig } from '@mailproof/config';
import { assertMetricsAccess } from './metrics-access';
import { MetricsService } from './metrics.service';
import { QueueDepthService, type QueueDepths } from './queue-depth.service';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: MailproofConfig,
    private readonly depths: QueueDepthService,
  ) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(@Req() req: Request): Promise<string> {
    assertMetricsAccess(req, this.config.http.metricsToken);
    return this.metrics.registry.metrics();
  }

  /**
   * Queue depths for autoscalers (KEDA's metrics-api trigger, `valueLocation: queues.<queue>.backlog`):
   * guarded exactly like the scrape above, never rate-limited or counted.
   */
  @Get('queues')
  @Header('Cache-Control', 'no-store')
  queues(@Req() req: Request): Promise<QueueDepths> {
    assertMetricsAccess(req, this.config.http.metricsToken, '/metrics/queues');
    return this.depths.read();
  }
}
