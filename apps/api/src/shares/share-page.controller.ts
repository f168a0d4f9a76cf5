import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { buildProblem, sendProblem } from '../problems/problem-response';
import { PreviewAnalysisCache } from './preview-analysis.cache';
import { SHARE_PAGE_FAVICON, SHARE_PAGE_SCRIPT, SHARE_PAGE_STYLES } from './share-page.assets';
import { clientView, renderNotFoundPage, renderSharePage } from './share-page.view';
import { SharesService } from './shares.service';

/**
 * The public share page. Email markup appears only inside `sandbox=""` iframes (srcdoc); the page
 * itself allows scripts and styles from this origin only, nothing may frame it, and the email's
 * remote resources are blocked (img-src stays on this origin), so viewing a share fires no
 * tracking pixel and no request leaves for another host. 'unsafe-inline' styles are needed
 * because srcdoc frames inherit this policy and emails style inline.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', PAGE_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
}

@ApiExcludeController()
@Controller('share')
export class SharePageController {
  constructor(
    private readonly shares: SharesService,
    private readonly analyses: PreviewAnalysisCache,
  ) {}

  @Get('assets/share.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('X-Content-Type-Options', 'nosniff')
  script(): string {
    return SHARE_PAGE_SCRIPT;
  }

  @Get('assets/share.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('X-Content-Type-Options', 'nosniff')
  styles(): string {
    return SHARE_PAGE_STYLES;
  }

  @Get('assets/favicon.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  @Header('X-Content-Type-Options', 'nosniff')
  favicon(): string {
    return SHARE_PAGE_FAVICON;
  }

  /** `?client=<id>&mode=both|light|dark` opens that view; unknown values fall back to the defaults (a link is a hint, not a request to refuse). */
  @Get(':id')
  async page(@Param('id') id: string, @Query('client') client: unknown, @Query('mode') mode: unknown, @Res() res: Response): Promise<void> {
    pageHeaders(res);
    const found = await this.shares.findLive(id);
    if (!found) {
      res.status(404).type('text/html; charset=utf-8').send(renderNotFoundPage());
      return;
    }
    const view = { client: typeof client === 'string' ? client : undefined, mode: typeof mode === 'string' ? mode : undefined };
    res
      .status(200)
      .type('text/html; charset=utf-8')
      .send(renderSharePage(found.share, found.preview, this.analyses.analysisOf(found.preview), view));
  }

  @Get(':id/clients/:clientId')
  async client(@Param('id') id: string, @Param('clientId') clientId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    const found = await this.shares.findLive(id);
    const analysis = found ? this.analyses.analysisOf(found.preview) : null;
    const view = analysis ? clientView(analysis, clientId) : null;
    if (!view) {
      sendProblem(res, buildProblem(404, 'not_found', 'No such shared client view.', { instance: req.path }));
      return;
    }
    res.status(200).json(view);
  }
}
