import { SsrfGuard, SsrfRefusedError } from './ssrf-guard';
import { readAtMost, TOO_LARGE } from './url-import';

export interface FetchedImage {
  status: number;
  /** The media type the server sent (parameters dropped), '' when none. */
  contentType: string;
  body: Buffer;
}

/** Why an image was not fetched: refused by the guard, too large, too slow, not an image, or unreachable. */
export type ImageFetchFailure = 'refused' | 'too-large' | 'timeout' | 'not-an-image' | 'error';

export class ImageFetchError extends Error {
  constructor(
    readonly failure: ImageFetchFailure,
    readonly url: string,
  ) {
    super(`${failure}: ${url}`);
    this.name = 'ImageFetchError';
  }
}

export interface FetchImageOptions {
  guard: SsrfGuard;
  /** Bytes read at most; a longer image is refused (never cut). */
  maxBytes: number;
  /** Time for everything: redirects (each re-checked by the guard) and the whole body. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One image for the render worker's page: GET through the SSRF guard (public addresses only, every
 * redirect re-checked, at most 3), an image/* answer of at most `maxBytes`, within `timeoutMs`.
 * Throws ImageFetchError; the caller fails the page's request (a broken image, as in a mail client).
 */
export async function fetchImage(url: string, options: FetchImageOptions): Promise<FetchedImage> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new ImageFetchError('timeout', url)), options.timeoutMs);
  const cancel = (): void => deadline.abort(new ImageFetchError('timeout', url));
  if (options.signal?.aborted) cancel();
  else options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const response = await options.guard
      .open(url, { method: 'GET', signal: deadline.signal, maxRedirects: 3, headers: { accept: 'image/*' } })
      .catch((error: unknown) => {
        throw error instanceof SsrfRefusedError
          ? new ImageFetchError('refused', url)
          : deadline.signal.aborted
            ? new ImageFetchError('timeout', url)
            : new ImageFetchError('error', url);
      });
    const { body } = response;
    try {
      const contentType = String(
        Array.isArray(response.headers['content-type']) ? response.headers['content-type'][0] : (response.headers['content-type'] ?? ''),
      )
        .split(';')[0]
        .trim()
        .toLowerCase();
      if (response.status < 200 || response.status > 299) throw new ImageFetchError('error', url);
      // Browsers sniff images without a type; a declared non-image (HTML, CSS, JS) is never handed to the page.
      if (contentType !== '' && !contentType.startsWith('image/') && contentType !== 'application/octet-stream') throw new ImageFetchError('not-an-image', url);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) throw new ImageFetchError('too-large', url);
      const bytes = await readAtMost(body, options.maxBytes, deadline.signal).catch((error: unknown) => {
        throw error === TOO_LARGE
          ? new ImageFetchError('too-large', url)
          : error instanceof ImageFetchError
            ? error
            : new ImageFetchError(deadline.signal.aborted ? 'timeout' : 'error', url);
      });
      return { status: response.status, contentType, body: bytes };
    } finally {
      body.on('error', () => undefined);
      body.destroy();
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}
