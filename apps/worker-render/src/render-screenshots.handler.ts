import { Injectable } from '@nestjs/common';
import type { RenderScreenshotsJobPayload, RenderScreenshotsJobResult } from '@mailproof/contracts';
import type { JobHandler } from '@mailproof/queue';
import { PreviewRenderService } from './preview-render.service';

/** `render.screenshots`: paint one stored preview's clients and store the PNGs and the rendered reports. */
@Injectable()
export class RenderScreenshotsHandler implements JobHandler<'render.screenshots'> {
  readonly jobName = 'render.screenshots';

  constructor(private readonly renderer: PreviewRenderService) {}

  handle(payload: RenderScreenshotsJobPayload): Promise<RenderScreenshotsJobResult> {
    return this.renderer.render(payload);
  }
}
