import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { type RenderScreenshotsJobPayload, type RenderScreenshotsJobResult, type StoredRenderedReports } from '@mailproof/contracts';
import { isClientId, renderEmailViews, type ClientId } from '@mailproof/engine';
import { SsrfGuard } from '@mailproof/net-guard';
import { parsePreviewResult, PreviewRepository, ScreenshotRepository, type AttachedShot, type StoredImage } from '@mailproof/persistence';
import { EmailImageLoader, mergeRenderedReports, renderEmail, renderedReports, RenderPool } from '@mailproof/render';

/**
 * Paints a stored preview's client views (libs/render) and stores the screenshots with the reports
 * measured in the pages. One Chromium pool per process, launched at start and relaunched by the pool
 * when a browser dies; remote images come through the SSRF guard unless RENDER_IMAGES=false.
 */
@Injectable()
export class PreviewRenderService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PreviewRenderService.name);
  private pool: Promise<RenderPool> | null = null;
  private readonly guard: SsrfGuard | null;

  constructor(
    private readonly config: MailproofConfig,
    private readonly previews: PreviewRepository,
    private readonly screenshots: ScreenshotRepository,
  ) {
    this.guard = config.render.images ? new SsrfGuard({ allowedAddresses: config.netGuard.allowedAddresses }) : null;
  }

  onModuleInit(): void {
    // Started in the background: the worker takes jobs at once, the first job waits for the browsers.
    void this.getPool().catch((error: unknown) => this.logger.error(`Chromium did not start: ${error instanceof Error ? error.message : String(error)}`));
  }

  async onModuleDestroy(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await (await pool?.catch(() => null))?.close();
    await this.guard?.close();
  }

  private getPool(): Promise<RenderPool> {
    this.pool ??= RenderPool.launch({
      chromiumPath: this.config.chromiumPath,
      concurrency: this.config.workers.renderConcurrency,
      pageTimeoutMs: this.config.render.pageTimeoutMs,
      maxHeightPx: this.config.render.maxHeightPx,
    }).catch((error: unknown) => {
      this.pool = null;
      throw error;
    });
    return this.pool;
  }

  async render(payload: RenderScreenshotsJobPayload): Promise<RenderScreenshotsJobResult> {
    const preview = await this.previews.findForRender(payload.previewId);
    const wanted = (clients: readonly string[]): ClientId[] =>
      (payload.clients ?? clients).filter((id): id is ClientId => isClientId(id) && clients.includes(id));
    // Deleted or expired meanwhile: nothing to paint, nothing to store.
    if (!preview) return { previewId: payload.previewId, captured: [], failed: [] };
    const clients = wanted(preview.clients);
    const allShots = clients.flatMap((client) => payload.modes.map((mode) => `${client}-${mode}`));
    if (preview.status !== 'completed' || !preview.result) {
      return { previewId: preview.id, captured: [], failed: allShots.map((id) => ({ id, reason: 'the preview has no analysis to paint' })) };
    }
    const analysis = parsePreviewResult(preview.result);
    const html = preview.format === 'html' ? preview.source : (analysis.compiledHtml ?? '');
    // The reference rendering (the email as written) is painted with the clients, once per viewport and
    // scheme, and stored beside them as `reference-<viewport>-<mode>` (docs/visual.md).
    const views = renderEmailViews(html, { clients });
    const pool = await this.getPool();
    const result = await renderEmail(pool, views.clients, payload.modes, new EmailImageLoader(this.guard), views.reference);

    const images = new Map<string, StoredImage>();
    const hashOfUnit = new Map<string, string>();
    const shots: AttachedShot[] = [];
    const urls: Record<string, string> = {};
    for (const [id, { unit, page }] of [...result.painted, ...result.references]) {
      let hash = hashOfUnit.get(unit.key);
      if (!hash) {
        hash = await this.screenshots.imageHash(preview.accountId, page.png);
        hashOfUnit.set(unit.key, hash);
        images.set(hash, { hash, png: page.png, width: page.pixelWidth, height: page.pixelHeight });
      }
      shots.push({ shot: id, hash, truncated: page.truncated });
      urls[id] = `${this.config.http.publicBaseUrl}/screenshots/${hash}.png`;
    }
    const reports: StoredRenderedReports = {
      ...renderedReports(result.painted, clients, payload.modes, {
        references: result.references,
        comparisons: result.comparisons,
        findings: analysis.cssReport,
      }),
      screenshotNotes: result.notes,
    };
    const stored = await this.screenshots.attachToPreview(preview.id, [...images.values()], shots, urls, (current) => mergeRenderedReports(current, reports));
    if (!stored) return { previewId: preview.id, captured: [], failed: [] };
    for (const failure of result.failed) this.logger.warn(`screenshot ${failure.id} of ${preview.id} failed: ${failure.reason}`);
    return { previewId: preview.id, captured: shots.map((shot) => shot.shot), failed: result.failed };
  }
}
