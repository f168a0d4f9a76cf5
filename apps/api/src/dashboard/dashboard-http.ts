import { ValidationPipe, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { FieldError } from '@mailproof/contracts';
import type { AuthenticatedAccount, AuthenticatedRequest } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import { validationProblem } from '../problems/validation-problem.factory';
import { html } from './views/html';
import { page, type PageContext } from './views/layout';

/**
 * The dashboard's policy: scripts and styles from this origin only. The preview page alone allows
 * inline styles, which the email in its sandboxed srcdoc frames needs (frames inherit the policy).
 */
function policy(inlineStyles: boolean): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function sendPage(res: Response, status: number, body: string, options: { inlineStyles?: boolean } = {}): void {
  res.setHeader('Content-Security-Policy', policy(options.inlineStyles === true));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).type('text/html; charset=utf-8').send(body);
}

/** Fixed messages a redirect may ask for (`?done=`): the URL never carries text shown to the user. */
const NOTICES: Record<string, string> = {
  'preview-deleted': 'The preview was deleted.',
  'domain-added': 'The domain was added; its first audit is running.',
  'domain-removed': 'The domain was removed.',
  'key-revoked': 'The key was revoked.',
  shared: 'Share link created.',
  'screenshots-complete': 'Screenshots rendered.',
  'screenshots-partial': 'Some screenshots could not be rendered; the others are below.',
  'screenshots-pending': 'Screenshots are still rendering; reload in a few seconds.',
  'webhook-test-queued': 'Test event queued; its delivery is listed below (reload to follow it).',
  'webhook-enabled': 'The endpoint was enabled again.',
  'webhook-deleted': 'The webhook endpoint was deleted.',
  'retention-saved': 'The retention was saved; stored content past it goes at the next sweep (within the hour).',
};

export function pageContext(req: Request): PageContext {
  const session = (req as AuthenticatedRequest).dashboardSession;
  const done = typeof req.query.done === 'string' ? req.query.done : undefined;
  return { path: req.path, csrfToken: session?.csrfToken, notice: done ? NOTICES[done] : undefined };
}

/** The signed-in account (the gate middleware has redirected every request without one). */
export function accountOf(req: Request): AuthenticatedAccount {
  const account = (req as AuthenticatedRequest).identity?.account;
  if (!account) throw new ProblemException('unauthorized', 'Sign in to the dashboard first.');
  return account;
}

export function sendNotFound(req: Request, res: Response, what: string): void {
  sendPage(res, 404, page('Not found', pageContext(req), html`<h1>Not found</h1><p>${what}</p><p><a href="/app">Back to the overview</a></p>`));
}

const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, exceptionFactory: validationProblem });

/**
 * Checks form fields with the HTTP API's own request class and pipe, so a form accepts exactly
 * what the JSON endpoint accepts. The CSRF field is the form's, not the request's.
 */
export async function validateForm<T extends object>(
  type: Type<T>,
  fields: Record<string, unknown>,
): Promise<{ value: T } | { errors: FieldError[]; detail: string }> {
  const { _csrf: _ignored, ...plain } = fields;
  try {
    return { value: (await pipe.transform(plain, { type: 'body', metatype: type })) as T };
  } catch (error) {
    if (error instanceof ProblemException) return { errors: error.extensions.errors ?? [], detail: error.message };
    throw error;
  }
}

/** A problem thrown by a service, as a message for the form that caused it; anything else is rethrown. */
export function problemMessage(error: unknown): { status: number; detail: string; errors: FieldError[] } {
  if (error instanceof ProblemException) return { status: error.getStatus(), detail: error.message, errors: error.extensions.errors ?? [] };
  throw error;
}

export function formErrors(detail: string | undefined, errors: FieldError[] = []) {
  if (!detail) return '';
  return html`<div class="error" role="alert"><p>${detail}</p>${errors.length > 0 && html`<ul>${errors.map((e) => html`<li><strong>${e.field}</strong>: ${e.message}</li>`)}</ul>`}</div>`;
}

export function text(value: unknown, max = 1000): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/** A form field that may repeat (checkboxes): one value arrives as a string, several as an array. */
export function asList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];
}

export function pageNumber(value: unknown): number {
  const n = typeof value === 'string' ? Number.parseInt(value, 10) : 1;
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 100_000) : 1;
}
