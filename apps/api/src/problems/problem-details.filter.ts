import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ProblemDetails } from '@mailproof/contracts';
import { MailproofConfig } from '@mailproof/config';
import { AccountGoneError, DataKeyringError, databasePortOf, EncryptedContentGoneError, isStoreUnavailable } from '@mailproof/persistence';
import { PROBLEM_STATUS, ProblemException } from './problem.exception';
import { buildProblem, defaultCodeFor, sendProblem } from './problem-response';

/** Seconds a client should wait before retrying while PostgreSQL is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The one exception filter of the API. Every error leaves as application/problem+json with a
 * stable `code`; a 500 never carries a message, stack or file path from the server.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private readonly databasePort?: number;

  constructor(@Optional() config?: MailproofConfig) {
    this.databasePort = config ? databasePortOf(config.database.url) : undefined;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { id?: string }>();
    const res = http.getResponse<Response>();
    const context = { instance: req.originalUrl?.split('?')[0], requestId: req.id ? String(req.id) : undefined };

    if (exception instanceof ProblemException) {
      const { headers, ...extensions } = exception.extensions;
      const problem = buildProblem(exception.getStatus(), exception.code, exception.message, { ...context, ...extensions });
      return sendProblem(res, problem, headers);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse() as { details?: unknown };
      if (status === 503 && typeof response === 'object' && response?.details) {
        // A failed readiness check: say which dependency is down (no internals, just up/down per check).
        const problem = buildProblem(503, 'service_unavailable', 'A dependency is not ready.', { ...context, details: response.details });
        return sendProblem(res, problem, { 'Retry-After': '5' });
      }
      if (status >= 500) return this.internal(exception, res, context, status);
      return sendProblem(res, buildProblem(status, defaultCodeFor(status), this.clientMessage(exception), context));
    }
    if (exception instanceof EncryptedContentGoneError) {
      // Its data key was shredded (an erased account, an expired anonymous day): the content cannot come back (docs/privacy.md).
      return sendProblem(
        res,
        buildProblem(PROBLEM_STATUS.content_gone, 'content_gone', 'The stored email was erased: its encryption key no longer exists.', context),
      );
    }
    if (exception instanceof DataKeyringError) {
      // MAILPROOF_DATA_KEYS lacks the key that wrapped this data key (an operator's mistake, fixed by putting it back): not a bug of the request.
      this.logger.error({ requestId: context.requestId }, exception.message);
      const detail = `Stored content cannot be decrypted: the server's key ring lacks key "${exception.kekId ?? 'unknown'}"; retry once it is restored.`;
      return sendProblem(res, buildProblem(503, 'service_unavailable', detail, { ...context, keyId: exception.kekId ?? null }), { 'Retry-After': '60' });
    }
    if (exception instanceof AccountGoneError) {
      // Erased while this request was in flight (a replica not yet told): its key no longer exists, as the next request would find.
      return sendProblem(res, buildProblem(401, 'unauthorized', 'The API key no longer exists: its account was erased.', context), {
        'WWW-Authenticate': 'Bearer realm="mailproof"',
      });
    }
    if (isStoreUnavailable(exception, this.databasePort)) {
      // PostgreSQL refused, dropped the connection or is shutting down/starting: a dependency is down, not a bug.
      this.logger.warn({ requestId: context.requestId }, `the database is unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
      const problem = buildProblem(503, 'service_unavailable', 'The database is unavailable; retry shortly.', context);
      return sendProblem(res, problem, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    return this.internal(exception, res, context, 500);
  }

  private clientMessage(exception: HttpException): string {
    const response = exception.getResponse();
    if (typeof response === 'object' && response && 'message' in response) {
      const message = (response as { message: unknown }).message;
      return Array.isArray(message) ? message.join('; ') : String(message);
    }
    return exception.message;
  }

  private internal(exception: unknown, res: Response, context: Partial<ProblemDetails>, status: number): void {
    this.logger.error({ err: exception, requestId: context.requestId }, exception instanceof Error ? exception.stack : String(exception));
    const detail = status === 503 ? 'The service cannot answer right now; retry shortly.' : 'An unexpected error occurred. It has been logged.';
    const code = status === 503 ? 'service_unavailable' : 'internal_error';
    sendProblem(res, buildProblem(status, code, detail, context), status === 503 ? { 'Retry-After': '5' } : {});
  }
}
