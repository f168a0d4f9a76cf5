import { fetchImage, ImageFetchError, type SsrfGuard } from '@mailproof/net-guard';

/** Caps on the images of one email (every client's pages share them): per image and in total. */
export interface ImageLimits {
  maxImageBytes: number;
  imageTimeoutMs: number;
  /** Distinct image URLs fetched per email; later ones stay broken. */
  maxImages: number;
  maxTotalBytes: number;
  /** Time from the first image request of the email after which no new image is fetched. */
  budgetMs: number;
}

export const IMAGE_LIMITS: ImageLimits = {
  maxImageBytes: 2 * 1024 * 1024,
  imageTimeoutMs: 3_000,
  maxImages: 40,
  maxTotalBytes: 10 * 1024 * 1024,
  budgetMs: 6_000,
};

export type LoadedImage = { ok: true; contentType: string; body: Buffer } | { ok: false; reason: string };

/**
 * The images of one email, fetched once for all its pages (21 clients show the same logo) through the
 * SSRF guard, within per-image and per-email caps. Never throws: a refused, failed or over-budget image
 * is `ok: false` with a reason, and the page shows it broken, as a mail client would.
 */
export class EmailImageLoader {
  private readonly loads = new Map<string, Promise<LoadedImage>>();
  private totalBytes = 0;
  private startedAt: number | null = null;
  readonly failures = new Map<string, string>();

  constructor(
    private readonly guard: SsrfGuard | null,
    private readonly limits: ImageLimits = IMAGE_LIMITS,
  ) {}

  load(url: string): Promise<LoadedImage> {
    let loading = this.loads.get(url);
    if (!loading) {
      loading = this.fetch(url).then((image) => {
        if (!image.ok) this.failures.set(url, image.reason);
        return image;
      });
      this.loads.set(url, loading);
    }
    return loading;
  }

  private async fetch(url: string): Promise<LoadedImage> {
    if (!this.guard) return { ok: false, reason: 'remote images are off (RENDER_IMAGES=false)' };
    this.startedAt ??= Date.now();
    if (this.loads.size > this.limits.maxImages) return { ok: false, reason: `more than ${this.limits.maxImages} images` };
    const left = this.limits.budgetMs - (Date.now() - this.startedAt);
    if (left <= 0) return { ok: false, reason: `the ${this.limits.budgetMs} ms image budget was spent` };
    try {
      const image = await fetchImage(url, { guard: this.guard, maxBytes: this.limits.maxImageBytes, timeoutMs: Math.min(this.limits.imageTimeoutMs, left) });
      this.totalBytes += image.body.length;
      if (this.totalBytes > this.limits.maxTotalBytes) return { ok: false, reason: `the email's images exceed ${this.limits.maxTotalBytes} bytes` };
      return { ok: true, contentType: image.contentType || 'application/octet-stream', body: image.body };
    } catch (error) {
      return { ok: false, reason: error instanceof ImageFetchError ? error.failure : 'error' };
    }
  }
}
