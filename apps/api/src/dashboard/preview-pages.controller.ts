import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { FixTier } from '@mailproof/engine';
import { PREVIEW_SORTS, type PreviewSort } from '@mailproof/persistence';
import { Authenticated } from '../auth/auth.decorators';
import { UsageRecorder } from '../auth/usage-recorder.service';
import { fixRunResult, FixService } from '../fix/fix.service';
import { PreviewRequest } from '../previews/dto/preview.request';
import { previewOutcome, PreviewsService } from '../previews/previews.service';
import { problemForFailure } from '../problems/problem-for-failure';
import { ProblemException } from '../problems/problem.exception';
import { PreviewAnalysisCache } from '../shares/preview-analysis.cache';
import { clientView } from '../shares/share-page.view';
import { SharesService } from '../shares/shares.service';
import { accountOf, asList, formErrors, pageContext, pageNumber, problemMessage, sendNotFound, sendPage, text, validateForm } from './dashboard-http';
import { DashboardTraces } from './trace-pages.controller';
import { fixPage } from './views/fix.view';
import { previewDetailPage } from './views/preview-detail.view';
import { newPreviewPage, previewListPage, type NewPreviewForm } from './views/previews.view';

const PAGE_SIZE = 20;

/** Saved previews: list and search, create, open, share, delete; all through PreviewsService and SharesService. */
@ApiExcludeController()
@Authenticated()
@Controller('app/previews')
export class PreviewPagesController {
  constructor(
    private readonly previews: PreviewsService,
    private readonly shares: SharesService,
    private readonly usage: UsageRecorder,
    private readonly analyses: PreviewAnalysisCache,
    private readonly fixes: FixService,
    private readonly traces: DashboardTraces,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const q = (text(query.q, 200) ?? '').trim();
    const sort: PreviewSort = PREVIEW_SORTS.includes(query.sort as PreviewSort) ? (query.sort as PreviewSort) : 'date-desc';
    const page = pageNumber(query.page);
    const result = await this.previews.list(accountOf(req).accountId, page, PAGE_SIZE, { titleContains: q || undefined, sort });
    sendPage(res, 200, previewListPage(pageContext(req), { previews: result.previews, page, pageSize: PAGE_SIZE, total: result.total, q, sort }));
  }

  @Get('new')
  form(@Req() req: Request, @Res() res: Response): void {
    sendPage(res, 200, newPreviewPage(pageContext(req), { title: '', html: '', format: 'html', clients: [] }));
  }

  /** The same PreviewsService.create as POST /api/preview: stored, queued, awaited within PREVIEW_BUDGET_MS. */
  @Post('new')
  async create(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const form: NewPreviewForm = {
      title: text(body.title, 200) ?? '',
      html: text(body.html, 2_000_000) ?? '',
      format: text(body.format, 20) ?? 'html',
      clients: asList(body.clients),
    };
    const fields = { html: form.html, format: form.format, title: form.title.trim() || undefined, clients: form.clients.length > 0 ? form.clients : undefined };
    const checked = await validateForm(PreviewRequest, fields);
    if ('errors' in checked) return sendPage(res, 400, newPreviewPage(pageContext(req), form, formErrors(checked.detail, checked.errors)));
    try {
      const account = accountOf(req);
      // An analysis from the dashboard counts for the session's key like one over HTTP (page views do not).
      this.usage.record(account.keyId, 'preview');
      const outcome = await this.previews.create(checked.value, account);
      // Analyzed, or still queued (budget spent): the preview exists, and its page says so and can be reloaded.
      if (outcome.state !== 'failed') {
        const id = outcome.state === 'done' ? outcome.value.id : outcome.subject.id;
        return res.redirect(303, `/app/previews/${encodeURIComponent(id)}`);
      }
      // Did not compile, too large...: shown on the form like any other problem, below.
      throw problemForFailure(outcome.failure, outcome.subject);
    } catch (error) {
      const problem = problemMessage(error);
      // A compile failure names where: the same line and column the API's 422 carries.
      const line = error instanceof ProblemException ? error.extensions.line : undefined;
      const column = error instanceof ProblemException ? error.extensions.column : undefined;
      const where = typeof line === 'number' ? ` (line ${line}${typeof column === 'number' ? `, column ${column}` : ''})` : '';
      sendPage(res, problem.status, newPreviewPage(pageContext(req), form, formErrors(problem.detail + where, problem.errors)));
    }
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Query('share') shareId: unknown): Promise<void> {
    const preview = await this.previews.findOwned(id, accountOf(req));
    if (!preview) return sendNotFound(req, res, 'No saved preview with this id in your account.');
    const outcome = previewOutcome(preview);
    const failure = outcome.state === 'failed' ? problemForFailure(outcome.failure, outcome.subject).message : undefined;
    const share = typeof shareId === 'string' ? await this.shares.findLive(shareId) : null;
    const shareUrl = share && share.preview.id === preview.id ? this.shares.urlOf(share.share.id) : undefined;
    sendPage(
      res,
      200,
      previewDetailPage(pageContext(req), { preview, analysis: this.analyses.analysisOf(preview), shareUrl, failure, traceLink: this.traces.shown }),
      {
        inlineStyles: true,
      },
    );
  }

  /** One client's markup for the viewer's picker (the share page's script fetches it). */
  @Get(':id/clients/:clientId')
  async client(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Param('clientId') clientId: string): Promise<void> {
    const preview = await this.previews.findOwned(id, accountOf(req));
    const analysis = preview ? this.analyses.analysisOf(preview) : null;
    const view = analysis ? clientView(analysis, clientId) : null;
    if (!view) throw new ProblemException('not_found', 'No such client view of your preview.');
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json(view);
  }

  @Post(':id/share')
  async share(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      const share = await this.shares.create(accountOf(req), id);
      res.redirect(303, `/app/previews/${encodeURIComponent(id)}?share=${encodeURIComponent(share.id)}&done=shared`);
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, 'No saved preview with this id in your account.');
      throw error;
    }
  }

  /** Renders every client light and dark (POST /api/preview/:id/screenshots' work) and comes back to the page. */
  @Post(':id/screenshots')
  async screenshots(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      const answer = await this.previews.captureScreenshots(id, {}, accountOf(req));
      res.redirect(303, `/app/previews/${encodeURIComponent(id)}?done=screenshots-${answer.screenshotStatus}`);
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, 'No saved preview with this id in your account.');
      throw error;
    }
  }

  /**
   * The Fix action: the preview's email as it was submitted (source, files, format, clients) through
   * FixService.create, the same store, queue and budget as POST /api/fix; then the run's page.
   */
  @Post(':id/fix')
  async fix(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Body() body: Record<string, unknown>): Promise<void> {
    const account = accountOf(req);
    const preview = await this.previews.findOwned(id, account);
    const submission = preview ? await this.previews.findOwnedSubmission(id, account) : null;
    if (!preview || !submission) return sendNotFound(req, res, 'No saved preview with this id in your account.');
    const tiers: FixTier[] = body.tier === 'layout' ? ['safe', 'layout'] : ['safe'];
    // A fix from the dashboard counts for the session's key like one over HTTP.
    this.usage.record(account.keyId, 'fix');
    const { source, format, clients, files, mjmlValidation } = submission;
    const outcome = await this.fixes.create({ html: source, format, clients, files, mjmlValidation, tiers }, account);
    if (outcome.state === 'failed') {
      const problem = problemForFailure(outcome.failure, outcome.subject);
      return sendPage(
        res,
        problem.getStatus(),
        fixPage(pageContext(req), { preview, fixId: outcome.subject.id, tiers, state: 'failed', failure: problem.message }),
      );
    }
    const fixId = outcome.state === 'done' ? outcome.value.id : outcome.subject.id;
    res.redirect(303, `/app/previews/${encodeURIComponent(id)}/fix/${encodeURIComponent(fixId)}`);
  }

  /** A fix run of the account (FixService.read), shown under its preview: the re-analysis, applied, skipped, the diff. */
  @Get(':id/fix/:fixId')
  async fixResult(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Param('fixId') fixId: string): Promise<void> {
    const account = accountOf(req);
    const preview = await this.previews.findOwned(id, account);
    if (!preview) return sendNotFound(req, res, 'No saved preview with this id in your account.');
    const outcome = await this.fixes.read(fixId, account);
    if (!outcome) return sendNotFound(req, res, 'No fix run with this id in your account (fix runs are kept for 24 hours).');
    const context = pageContext(req);
    if (outcome.state === 'pending') return sendPage(res, 200, fixPage(context, { preview, fixId, state: 'pending' }));
    if (outcome.state === 'failed') {
      const problem = problemForFailure(outcome.failure, outcome.subject);
      return sendPage(res, 200, fixPage(context, { preview, fixId, state: 'failed', failure: problem.message }));
    }
    const tiers = outcome.value.tiers;
    sendPage(res, 200, fixPage(context, { preview, fixId, tiers, state: 'done', result: fixRunResult(outcome.value) }));
  }

  @Post(':id/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      await this.previews.delete(accountOf(req).accountId, id);
      res.redirect(303, '/app/previews?done=preview-deleted');
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, 'No saved preview with this id in your account.');
      throw error;
    }
  }
}
