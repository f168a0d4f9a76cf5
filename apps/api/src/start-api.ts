import type { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { MailproofConfig } from '@mailproof/config';
import { startTracing } from '@mailproof/queue';
import { ApiModule } from './api.module';
import { AccessMiddleware } from './auth/access.middleware';
import { dashboardGate } from './dashboard/dashboard-gate.middleware';
import { installJsonBodyParsing } from './http/body-parsing';
import { configureHttpServer, requireHostHeader } from './http/server-limits';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { requestTracingMiddleware } from './http/request-tracing.middleware';
import { MetricsService } from './metrics/metrics.service';

/**
 * Creates and configures the API (not yet listening). Tests and the launcher share this; a test
 * may pass a root module that wraps ApiModule to add a controller of its own.
 */
export async function createApiApp(
  config: MailproofConfig,
  rootModule: DynamicModule = ApiModule.forRoot(config),
  options: { accessLayer?: boolean } = {},
): Promise<INestApplication> {
  const tracing = startTracing(config, 'mailproof-api');
  const app = await NestFactory.create<NestExpressApplication>(rootModule, {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  // Request timeout and problem+json answers to what Node refuses before Express sees a request.
  configureHttpServer(app.getHttpServer(), config.http.requestTimeoutMs);
  // X-Forwarded-For is believed only from the configured proxies (TRUSTED_PROXIES).
  app.set('trust proxy', config.rateLimits.trustedProxies.length > 0 ? config.rateLimits.trustedProxies : false);
  app.disable('x-powered-by');
  // Express would hash every response body for an ETag; previews are hundreds of KB and never revalidated.
  app.set('etag', false);
  // First, so every later step of a request runs inside its span (a no-op with TRACING=off).
  if (config.tracing.mode !== 'off') app.use(requestTracingMiddleware());
  app.use(httpMetricsMiddleware(app.get(MetricsService)));
  app.use(requireHostHeader);
  // Identify and rate-limit before reading bodies, so floods cost as little as possible.
  // accessLayer: false exists only so the auth benchmark can measure the layer's cost.
  if (options.accessLayer !== false) app.use(app.get(AccessMiddleware).handle);
  installJsonBodyParsing(app, config.http.bodyLimitBytes);
  // The dashboard's sign-in redirect and CSRF check need the identity and the parsed form.
  app.use(dashboardGate);

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Mailproof API')
      .setDescription('Email previews, audits, DNS deliverability and the pre-send gate. Errors are RFC 9457 problem+json.')
      .setVersion(process.env.npm_package_version ?? '0.1.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'mp_live_ API key', description: 'An API key (mp_live_...)' })
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'x-api-key')
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/openapi.json', yamlDocumentUrl: 'api/openapi.yaml' });

  await app.init();
  app.get(Logger).log(tracing, 'Bootstrap');
  await app.get(MetricsService).watchQueues();
  return app;
}

export async function startApi(config: MailproofConfig): Promise<INestApplication> {
  const app = await createApiApp(config);
  await app.listen(config.http.port, config.http.host);
  app.get(Logger).log(`API listening on ${config.http.host}:${config.http.port}`, 'Bootstrap');
  return app;
}
