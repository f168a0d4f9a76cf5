import { Injectable, Logger } from '@nestjs/common';
import type { RenderScreenshotsJobPayload, RenderScreenshotsJobResult } from '@mailproof/contracts';
import { GateRunRepository } from '@mailproof/persistence';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { PreviewRenderService } from './preview-render.service';

/** `render.screenshots`: paint one stored preview's clients and store the PNGs and the rendered reports. */
@Injectable()
export class RenderScreenshotsHandler implements JobHandler<'render.screenshots'> {
  readonly jobName = 'render.screenshots';
  private readonly logger = new Logger('RenderScreenshots');

  constructor(
    private readonly renderer: PreviewRenderService,
    private readonly gateRuns: GateRunRepository,
  ) {}

  handle(payload: RenderScreenshotsJobPayload): Promise<RenderScreenshotsJobResult> {
    return this.renderer.render(payload);
  }

  /**
   * Painting failed for good. A preview's screenshots are simply absent (ask again to retry); but a gate run
   * with the visual check waits on this step in its chain, and the steps after it are failed by BullMQ
   * (failParentOnFailure) without ever running: the run is ended here, or it would stay running for good.
   */
  async onFinalFailure(payload: RenderScreenshotsJobPayload, cause: FinalFailureCause): Promise<void> {
    const message =
      cause === 'stalled'
        ? 'Painting the email stopped its worker twice (crashed or froze) and was not tried again.'
        : 'Painting the email failed on every attempt.';
    const ended = await this.gateRuns.failForPreview(payload.previewId, { code: 'internal_error', message });
    if (ended > 0) this.logger.warn(`screenshots of ${payload.previewId} failed for good (${cause}); its gate run failed with them`);
  }
}
