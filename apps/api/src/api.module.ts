import { DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { ApiQueueModule } from '@mailproof/queue';
import { WebhookQueueModule } from '@mailproof/webhooks';
import { AccountController } from './account/account.controller';
import { AccountService } from './account/account.service';
import { AccessMiddleware } from './auth/access.middleware';
import { AccountRevocations } from './auth/account-revocations.service';
import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { AuthGuard } from './auth/auth.guard';
import { RateLimiterService } from './auth/rate-limiter.service';
import { UsageRecorder } from './auth/usage-recorder.service';
import { DeliverabilityController } from './deliverability/deliverability.controller';
import { DeliverabilityService } from './deliverability/deliverability.service';
import { DiagnosticsController } from './diagnostics/diagnostics.controller';
import { DomainsController } from './domains/domains.controller';
import { DomainsService } from './domains/domains.service';
import { RoundTripService } from './diagnostics/round-trip.service';
import { ClientsController } from './clients/clients.controller';
import { FixController } from './fix/fix.controller';
import { FixService } from './fix/fix.service';
import { GateController } from './gate/gate.controller';
import { GateService } from './gate/gate.service';
import { HealthController } from './health/health.controller';
import { HomeController } from './home/home.controller';
import { PreviewsController } from './previews/previews.controller';
import { PreviewsService } from './previews/previews.service';
import { SharePageController } from './shares/share-page.controller';
import { SharesController } from './shares/shares.controller';
import { ScreenshotsController } from './screenshots/screenshots.controller';
import { PreviewAnalysisCache } from './shares/preview-analysis.cache';
import { SharesService } from './shares/shares.service';
import { KeysController } from './keys/keys.controller';
import { McpController } from './mcp/mcp.controller';
import { McpToolsService } from './mcp/mcp-tools.service';
import { KeysService } from './keys/keys.service';
import { DashboardAuthenticator } from './auth/dashboard-authenticator';
import { DashboardSessionStore } from './auth/dashboard-session.store';
import { DashboardAssetsController } from './dashboard/dashboard-assets.controller';
import { AccountPagesController } from './dashboard/account-pages.controller';
import { DomainPagesController } from './dashboard/domain-pages.controller';
import { GatePagesController } from './dashboard/gate-pages.controller';
import { KeyPagesController } from './dashboard/key-pages.controller';
import { OverviewPageController } from './dashboard/overview-page.controller';
import { ClientPagesController } from './dashboard/client-pages.controller';
import { PreviewPagesController } from './dashboard/preview-pages.controller';
import { DashboardTraces, TracePagesController } from './dashboard/trace-pages.controller';
import { SignInController } from './dashboard/sign-in.controller';
import { WebhookPagesController } from './dashboard/webhook-pages.controller';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';
import { QueueDepthService } from './metrics/queue-depth.service';
import { ProblemDetailsFilter } from './problems/problem-details.filter';
import { validationProblem } from './problems/validation-problem.factory';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';

/** The HTTP API. Built from a config object so tests and the all-in-one launcher can pass their own. */
@Module({})
export class ApiModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        createLoggerModule(config, 'api'),
        PersistenceModule,
        ApiQueueModule,
        WebhookQueueModule,
        TerminusModule.forRoot({ errorLogStyle: 'json', logger: false }),
      ],
      controllers: [
        HomeController,
        HealthController,
        MetricsController,
        DiagnosticsController,
        KeysController,
        AccountController,
        ClientsController,
        PreviewsController,
        FixController,
        SharesController,
        ScreenshotsController,
        SharePageController,
        DeliverabilityController,
        DomainsController,
        GateController,
        WebhooksController,
        McpController,
        // The dashboard (/app): server-rendered pages over the same services (docs/dashboard.md).
        DashboardAssetsController,
        SignInController,
        OverviewPageController,
        PreviewPagesController,
        GatePagesController,
        DomainPagesController,
        KeyPagesController,
        WebhookPagesController,
        AccountPagesController,
        TracePagesController,
        ClientPagesController,
      ],
      providers: [
        MetricsService,
        QueueDepthService,
        RoundTripService,
        PreviewsService,
        FixService,
        SharesService,
        PreviewAnalysisCache,
        DeliverabilityService,
        DomainsService,
        GateService,
        WebhooksService,
        McpToolsService,
        KeysService,
        AccountService,
        AccountRevocations,
        ApiKeyAuthenticator,
        DashboardSessionStore,
        DashboardTraces,
        DashboardAuthenticator,
        RateLimiterService,
        UsageRecorder,
        AccessMiddleware,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            whitelist: true,
            forbidNonWhitelisted: true,
            transform: true,
            exceptionFactory: validationProblem,
          }),
        },
      ],
    };
  }
}
