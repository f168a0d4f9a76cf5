import { SsrfGuard, SsrfRefusedError, type GuardedRequestOptions, type GuardedResponse } from './ssrf-guard';

export interface UrlCheck {
  url: string;
  /** Final HTTP status, after redirects; null when no answer came. */
  status: number | null;
  /** Content-Length of the final answer, when the server sent one. */
  contentLength: number | null;
  finalUrl: string | null;
  /** Refused by the guard (no connection was made), timed out, or failed; null on an answer. */
  failure: 'refused' | 'timeout' | 'error' | null;
  detail: string | null;
}

export interface HeadBatchOptions {
  /** URLs checked at most (after removing duplicates); the rest are reported as skipped. */
  maxUrls?: number;
  /** Time for the whole batch; unfinished requests are aborted and count as timed out. */
  budgetMs?: number;
  /** Requests in flight at once. */
  concurrency?: number;
}

export interface HeadBatchResult {
  checks: Map<string, UrlCheck>;
  /** URLs beyond `maxUrls`, never requested. */
  skipped: string[];
}

function contentLengthOf(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d+$/.test(text.trim())) return null;
  const length = Number(text);
  return Number.isSafeInteger(length) ? length : null;
}

/** Error codes of a server that closes or garbles the connection instead of answering HEAD. */
const HEAD_REFUSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function headRefused(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (HEAD_REFUSED_CODES.has(code) || code.startsWith('HPE_'));
}

/**
 * Status and headers of a URL without reading a body: HEAD first, and GET (body destroyed unread) only
 * when the server rejects HEAD: 405 or 501, or it resets/closes the connection or answers garbage to it.
 * Refusals by the guard, timeouts and aborts are never retried.
 */
export async function headThenGet(guard: SsrfGuard, url: string, options: Omit<GuardedRequestOptions, 'method'> = {}): Promise<GuardedResponse> {
  try {
    const response = await guard.request(url, { ...options, method: 'HEAD' });
    if (response.status !== 405 && response.status !== 501) return response;
  } catch (error) {
    if (options.signal?.aborted || !headRefused(error)) throw error;
  }
  return guard.request(url, { ...options, method: 'GET' });
}

/**
 * Bounded HEAD requests through an SSRF guard: at most `maxUrls` distinct URLs, `concurrency` at a time,
 * all within `budgetMs` (the gate's link checks and the preview worker's image weights). A server that
 * refuses HEAD (405, 501) is asked again with GET, whose body is never read.
 */
export async function headUrls(guard: SsrfGuard, urls: readonly string[], options: HeadBatchOptions = {}): Promise<HeadBatchResult> {
  const maxUrls = options.maxUrls ?? 25;
  const budgetMs = options.budgetMs ?? 3000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const distinct = [...new Set(urls)];
  const queue = distinct.slice(0, maxUrls);
  const skipped = distinct.slice(maxUrls);
  const checks = new Map<string, UrlCheck>();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), budgetMs);
  timer.unref?.();

  const checkOne = async (url: string): Promise<UrlCheck> => {
    const base = { url, status: null, contentLength: null, finalUrl: null };
    if (deadline.signal.aborted) return { ...base, failure: 'timeout', detail: `budget of ${budgetMs} ms spent` };
    try {
      const response = await headThenGet(guard, url, { signal: deadline.signal });
      return {
        url,
        status: response.status,
        contentLength: contentLengthOf(response.headers['content-length']),
        finalUrl: response.url,
        failure: null,
        detail: null,
      };
    } catch (error) {
      if (error instanceof SsrfRefusedError || (error as { code?: string }).code === 'ESSRFREFUSED')
        return { ...base, failure: 'refused', detail: (error as Error).message };
      if (deadline.signal.aborted) return { ...base, failure: 'timeout', detail: `budget of ${budgetMs} ms spent` };
      return { ...base, failure: 'error', detail: (error as Error).message };
    }
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const url = queue[next++];
      checks.set(url, await checkOne(url));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, () => worker()));
  } finally {
    clearTimeout(timer);
  }
  return { checks, skipped };
}
