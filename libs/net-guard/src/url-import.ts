import type { Readable } from 'node:stream';
import { SsrfGuard, SsrfRefusedError, type SsrfRefusal } from './ssrf-guard';

/** Why `importEmailFromUrl` gave up; `reason` is one or two sentences for the problem detail. */
export abstract class UrlImportError extends Error {
  abstract readonly code: 'url_declined' | 'url_unreachable';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = new.target.name;
  }
}

/** The service will not fetch this URL: scheme, credentials, port, host name or address (also after a redirect). 400 url_declined. */
export class UrlDeclinedError extends UrlImportError {
  readonly code = 'url_declined';
}

/** The URL could not be fetched, or its answer is unusable: network, timeout, non-2xx, too large, too many redirects, not HTML, empty. 400 url_unreachable. */
export class UrlUnreachableError extends UrlImportError {
  readonly code = 'url_unreachable';
}

export interface ImportEmailOptions {
  /** The guard the request goes through (tests allow-list their loopback servers on it). */
  guard: SsrfGuard;
  /** Bytes read at most; a longer page is refused, never truncated. Default 500000. */
  maxBytes?: number;
  /** Redirects followed, each re-checked by the guard. Default 3. */
  maxRedirects?: number;
  /** Time for everything: connecting, redirects and the whole body. Default 5000. */
  timeoutMs?: number;
  /** Ends the import early (reported as unreachable). */
  signal?: AbortSignal;
}

export const URL_IMPORT_DEFAULTS = { maxBytes: 500_000, maxRedirects: 3, timeoutMs: 5000 } as const;

export interface ImportedEmail {
  html: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** The media type the server sent, without parameters. */
  contentType: 'text/html' | 'application/xhtml+xml';
  /** How the bytes were decoded: utf-8, or windows-1252 for a latin1/ISO-8859-1/ASCII charset (as browsers do). */
  charset: 'utf-8' | 'windows-1252';
  bytes: number;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const LATIN1_LABELS = new Set(['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'l1', 'windows-1252', 'cp1252', 'us-ascii', 'ascii']);

class ImportTimeout extends Error {
  constructor(ms: number) {
    super(`The page did not arrive completely within ${ms / 1000} s.`);
  }
}

/**
 * Fetches the email behind a "view in browser" link for the gate's `url` input:
 * one GET through the SSRF guard (http/https, public addresses only, every redirect re-checked, at most
 * `maxRedirects`), at most `maxBytes` read and `timeoutMs` for everything, HTML only, decoded with the
 * charset of the Content-Type (utf-8 or latin1; anything else as utf-8). Throws UrlDeclinedError or
 * UrlUnreachableError, whose `reason` explains the refusal to a person.
 */
export async function importEmailFromUrl(url: string, options: ImportEmailOptions): Promise<ImportedEmail> {
  const maxBytes = options.maxBytes ?? URL_IMPORT_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? URL_IMPORT_DEFAULTS.maxRedirects;
  const timeoutMs = options.timeoutMs ?? URL_IMPORT_DEFAULTS.timeoutMs;
  const { guard } = options;
  const start = url.trim();
  try {
    guard.check(start);
  } catch (error) {
    throw declined(start, start, error as SsrfRefusedError);
  }

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new ImportTimeout(timeoutMs)), timeoutMs);
  const external = options.signal;
  const cancel = (): void => deadline.abort(new Error('The import was canceled.'));
  if (external?.aborted) cancel();
  else external?.addEventListener('abort', cancel, { once: true });
  let hopUrl = start;
  try {
    const response = await guard
      .open(start, {
        method: 'GET',
        signal: deadline.signal,
        maxRedirects,
        headers: { accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1' },
        beforeHop: async (hop) => {
          hopUrl = hop.href;
          return () => undefined;
        },
      })
      .catch((error: unknown) => {
        throw failure(start, hopUrl, error, deadline.signal, maxRedirects);
      });
    const { body } = response;
    try {
      if (response.status < 200 || response.status > 299)
        throw new UrlUnreachableError(
          start,
          `The page answered with HTTP status ${response.status}${redirectedTo(start, response.url)}; only a 2xx answer is imported.`,
        );
      const { mediaType, charsetLabel } = parseContentType(response.headers['content-type']);
      if (!HTML_TYPES.has(mediaType)) {
        throw new UrlUnreachableError(
          start,
          mediaType === ''
            ? 'The page was sent without a Content-Type; only text/html is imported.'
            : `The page is ${mediaType}, not HTML; only text/html is imported.`,
        );
      }
      const declaredLength = Number(header(response.headers['content-length']));
      if (Number.isFinite(declaredLength) && declaredLength > maxBytes) throw tooLarge(start, maxBytes);
      const bytes = await readAtMost(body, maxBytes, deadline.signal).catch((error: unknown) => {
        throw error === TOO_LARGE ? tooLarge(start, maxBytes) : failure(start, response.url, error, deadline.signal, maxRedirects);
      });
      if (bytes.length === 0) throw new UrlUnreachableError(start, 'The page is empty.');
      const charset = LATIN1_LABELS.has(charsetLabel) ? 'windows-1252' : 'utf-8';
      return {
        html: new TextDecoder(charset).decode(bytes),
        finalUrl: response.url,
        contentType: mediaType as ImportedEmail['contentType'],
        charset,
        bytes: bytes.length,
      };
    } finally {
      body.on('error', () => undefined);
      body.destroy();
    }
  } finally {
    clearTimeout(timer);
    external?.removeEventListener('abort', cancel);
  }
}

/** What readAtMost rejects with when the body is longer than its limit. */
export const TOO_LARGE = new Error('too large');

function tooLarge(url: string, maxBytes: number): UrlUnreachableError {
  return new UrlUnreachableError(url, `The page is larger than ${maxBytes.toLocaleString('en-US')} bytes, the most an import reads.`);
}

/** Reads a body up to `maxBytes`, destroying it at once past the limit or when the signal fires. */
export function readAtMost(body: Readable, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: unknown): void => {
      signal.removeEventListener('abort', aborted);
      body.removeAllListeners('data');
      body.on('error', () => undefined);
      body.destroy();
      reject(error);
    };
    const aborted = (): void => stop(signal.reason);
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return stop(TOO_LARGE);
      chunks.push(chunk);
    });
    body.once('error', (error) => stop(error));
    body.once('end', () => {
      signal.removeEventListener('abort', aborted);
      resolve(Buffer.concat(chunks, size));
    });
  });
}

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function parseContentType(value: string | string[] | undefined): { mediaType: string; charsetLabel: string } {
  const [type, ...parameters] = header(value).split(';');
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(parameter)?.[1]).find((label) => label !== undefined);
  return { mediaType: type.trim().toLowerCase(), charsetLabel: (charset ?? 'utf-8').toLowerCase() };
}

function redirectedTo(start: string, hop: string): string {
  return sameUrl(start, hop) ? '' : ` (after redirecting to ${hop})`;
}

function sameUrl(start: string, hop: string): boolean {
  return hop === start || hop === safeHref(start);
}

function safeHref(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

const REFUSAL_TEXT: Record<Exclude<SsrfRefusal, 'too-many-redirects'>, (error: SsrfRefusedError) => string> = {
  'invalid-url': () => 'This is not a valid URL.',
  scheme: () => 'Only http and https URLs are imported.',
  credentials: () => 'URLs with a user name or password are not fetched.',
  port: (error) => `${capitalise(error.detail)}: only ports 80 and 443 are fetched.`,
  hostname: (error) => `${capitalise(error.detail)}; only public addresses are fetched.`,
  address: (error) => `${capitalise(error.detail)}; only public addresses are fetched.`,
};

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function declined(start: string, hop: string, error: SsrfRefusedError): UrlDeclinedError {
  const text = REFUSAL_TEXT[error.reason as keyof typeof REFUSAL_TEXT]?.(error) ?? error.message;
  return new UrlDeclinedError(start, sameUrl(start, hop) ? text : `The page redirects to ${hop}. ${text}`);
}

/** Turns whatever the request threw into the typed error, with the hop it happened at. */
function failure(start: string, hopUrl: string, error: unknown, deadline: AbortSignal, maxRedirects: number): Error {
  if (error instanceof UrlImportError) return error;
  if (error instanceof SsrfRefusedError) {
    if (error.reason === 'too-many-redirects') return new UrlUnreachableError(start, `The page redirects more than ${maxRedirects} times.`);
    // A redirect target refused by check() names itself; a name refused at connect time names only its host.
    const hop = /^https?:\/\//i.test(error.url) ? error.url : hopUrl;
    return declined(start, hop, error);
  }
  if (deadline.aborted) return new UrlUnreachableError(start, (deadline.reason as Error).message);
  const code = String((error as { code?: unknown }).code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  const where = redirectedTo(start, hopUrl);
  const text: Record<string, string> = {
    ENOTFOUND: 'The host name does not exist',
    EAI_AGAIN: 'The host name could not be resolved',
    ECONNREFUSED: 'The server refused the connection',
    ECONNRESET: 'The server closed the connection',
    UND_ERR_SOCKET: 'The server closed the connection',
    UND_ERR_CONNECT_TIMEOUT: 'The server did not accept a connection in time',
    EHOSTUNREACH: 'The server cannot be reached',
    ENETUNREACH: 'The server cannot be reached',
  };
  if (text[code]) return new UrlUnreachableError(start, `${text[code]}${where}.`);
  if (/CERT|TLS|SSL/i.test(code) || /certificate|tls|ssl/i.test(message))
    return new UrlUnreachableError(start, `The TLS connection failed${where}: ${message}.`);
  return new UrlUnreachableError(start, `The page could not be fetched${where}: ${message}.`);
}
