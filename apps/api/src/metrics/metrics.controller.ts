import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { MailproofConfig } from '@mailproof/config';
import { assertMetricsAccess } from './metrics-access';
import { MetricsService } from './metrics.service';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: MailproofConfig,
  ) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(@Req() req: Request): Promise<string> {
    assertMetricsAccess(req, this.config.http.metricsToken);
    return this.metrics.registry.metrics();
  }
}
