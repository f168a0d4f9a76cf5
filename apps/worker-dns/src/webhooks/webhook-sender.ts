import type { Readable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { HopTimeoutError, SsrfRefusedError, type SsrfGuard } from '@mailproof/net-guard';

/** Bytes of an endpoint's answer read at most (kept for the delivery log); the rest is never read. */
export const WEBHOOK_RESPONSE_CAP_BYTES = 1024;

export interface WebhookMessage {
  /** The event id: `webhook-id`, the same on every attempt. */
  id: string;
  /** The JSON body, signed and sent byte for byte. */
  body: string;
  secret: string;
}

export type WebhookAttempt =
  | { outcome: 'delivered'; httpStatus: number }
  /** An answer that is not 2xx (3xx included: redirects are never followed). Retried. */
  | { outcome: 'rejected'; httpStatus: number; error: string }
  /** The guard refused the destination (a private address, a port, a name resolving privately). Not retried. */
  | { outcome: 'declined'; httpStatus: null; error: string }
  /** No answer: connection refused, reset, TLS, timeout. Retried. */
  | { outcome: 'unreachable'; httpStatus: null; error: string };

/**
 * One signed POST of a webhook (Standard Webhooks: `webhook-id`, `webhook-timestamp` in seconds and
 * `webhook-signature` `v1,<base64 HMAC-SHA256 of id.timestamp.body>`), through the SSRF guard, with no
 * redirect followed, the whole attempt (connect, headers, capped body) bounded by `timeoutMs`, and at
 * most WEBHOOK_RESPONSE_CAP_BYTES of the answer read.
 */
export async function sendWebhook(guard: SsrfGuard, url: string, message: WebhookMessage, timeoutMs: number, now = new Date()): Promise<WebhookAttempt> {
  const signature = new Webhook(message.secret).sign(message.id, now, message.body);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new HopTimeoutError(url, timeoutMs)), timeoutMs);
  try {
    const response = await guard.open(url, {
      method: 'POST',
      body: message.body,
      followRedirects: false,
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mailproof-Webhooks/1',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    const excerpt = await readCapped(response.body, WEBHOOK_RESPONSE_CAP_BYTES);
    if (response.status >= 200 && response.status < 300) return { outcome: 'delivered', httpStatus: response.status };
    const location = typeof response.headers.location === 'string' ? ` to ${response.headers.location} (redirects are not followed)` : '';
    return { outcome: 'rejected', httpStatus: response.status, error: `HTTP ${response.status}${location}${excerpt ? `: ${excerpt}` : ''}` };
  } catch (error) {
    if (error instanceof SsrfRefusedError) return { outcome: 'declined', httpStatus: null, error: `declined: ${error.detail}` };
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof SsrfRefusedError) return { outcome: 'declined', httpStatus: null, error: `declined: ${cause.detail}` };
    if (controller.signal.aborted) return { outcome: 'unreachable', httpStatus: null, error: `no answer within ${timeoutMs} ms` };
    return { outcome: 'unreachable', httpStatus: null, error: describe(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Up to `cap` bytes of a body as text (for the log); the stream is destroyed then, read or not. */
async function readCapped(body: Readable, cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      chunks.push(buffer);
      bytes += buffer.length;
      if (bytes >= cap) break;
    }
  } catch {
    // A body cut off or timed out: what arrived is enough for the log.
  } finally {
    body.on('error', () => undefined);
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, cap).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 300);
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
