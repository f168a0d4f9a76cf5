import type { LastDrift } from '@mailproof/contracts';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated } from '../auth/auth.decorators';
import { DomainsService } from '../domains/domains.service';
import { GateService } from '../gate/gate.service';
import { PreviewsService } from '../previews/previews.service';
import { accountOf, pageContext, sendPage } from './dashboard-http';
import { overviewPage } from './views/overview.view';

const RECENT = 5;
const DRIFT_WINDOW_MS = 7 * 86_400_000;

/** What a domain's row says about it on the overview, or null when it needs nothing. */
function attentionReason(domain: { status: string; lastDrift: LastDrift | null }, now: number): string | null {
  if (domain.status === 'failing') return 'failing DNS checks';
  if (domain.status === 'degraded') return 'degraded DNS checks';
  const detectedAt = domain.lastDrift ? Date.parse(domain.lastDrift.detectedAt) : NaN;
  if (now - detectedAt < DRIFT_WINDOW_MS) return 'its records changed this week';
  return null;
}

@ApiExcludeController()
@Authenticated()
@Controller('app')
export class OverviewPageController {
  constructor(
    private readonly previews: PreviewsService,
    private readonly gate: GateService,
    private readonly domains: DomainsService,
  ) {}

  @Get()
  async overview(@Req() req: Request, @Res() res: Response): Promise<void> {
    const account = accountOf(req);
    const [previews, runs, domains] = await Promise.all([
      this.previews.list(account.accountId, 1, RECENT),
      this.gate.list(account, undefined, 1, RECENT),
      this.domains.list(account),
    ]);
    const now = Date.now();
    const attention = domains.domains.flatMap((d) => {
      const reason = attentionReason(d, now);
      return reason ? [{ ...d, reason }] : [];
    });
    sendPage(
      res,
      200,
      overviewPage(pageContext(req), {
        previews: previews.previews,
        previewTotal: previews.total,
        runs: runs.runs,
        attention,
        domainCount: domains.domains.length,
      }),
    );
  }
}
