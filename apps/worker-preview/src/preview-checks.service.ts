import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import {
  buildMessageReport,
  spamRiskLevel,
  type MessageAuthenticationInput,
  type MessageReport,
  type ParsedMessage,
  type PreviewAnalysis,
} from '@mailproof/engine';
import type { CheckedReports, CheckedSpamReport } from '@mailproof/contracts';
import { SsrfGuard } from '@mailproof/net-guard';
import { measureImageWeights } from './image-weight.check';

import { buildMimeMessage } from './mime-message.builder';
import { checkWithSpamd } from './spamd.client';

/** What the checks read from the analysis. */
export type CheckInputs = Pick<PreviewAnalysis, 'spamReport' | 'imageReport' | 'plainText' | 'inboxPreview'>;

/** Why an anonymous preview's message is not looked up: DNS audits are for accounts, as POST /api/deliverability is. */
export const ANONYMOUS_UNCHECKED = 'DNS lookups are made for previews sent with an API key (as POST /api/deliverability requires one)';

/**
 * format eml: the message around the analyzed HTML part, whether the request called it bulk mail (the gate's
 * `bulk`), and its authentication lookups, started when the message was parsed (MessageAuthenticationService).
 */
export interface CheckedMessage {
  parsed: ParsedMessage;
  /** The message as sent to Mailproof: what spamd judges. */
  raw: string;
  bulk: boolean;
  /** null: no lookups for this preview (an anonymous one), `uncheckedReason` says so. */
  authentication: Promise<MessageAuthenticationInput> | null;
}

/**
 * The checks that need the network and so live in the worker, not in the pure engine: SpamAssassin
 * (when SPAMASSASSIN_HOST is set) and image weights (unless IMAGE_WEIGHT_CHECK=off). They run side by side
 * after the analysis, each bounded in time (spamd by its timeout, images by a 3 s budget), and a failure
 * becomes a note in its report: the preview itself never fails because of them.
 */
@Injectable()
export class PreviewChecksService implements OnApplicationShutdown {
  private readonly logger = new Logger('PreviewChecks');
  /** Long-lived: its dispatcher keeps no connections, but one guard serves every preview. */
  private readonly guard: SsrfGuard | null;

  constructor(private readonly config: MailproofConfig) {
    this.guard = config.previews.imageWeightCheck ? new SsrfGuard() : null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.guard?.close();
  }

  async complete(previewId: string, html: string, analysis: CheckInputs, message: CheckedMessage | null = null): Promise<CheckedReports> {
    const [spamReport, imageReport, messageReport] = await Promise.all([
      this.spamAssassin(previewId, html, analysis, message),
      this.imageWeights(previewId, analysis),
      message ? this.messageReport(message, analysis) : null,
    ]);
    return { spamReport, imageReport, messageReport };
  }

  /** The message report, its authentication from the DNS audits; a lookup that fails leaves it inconclusive, never a failed preview. */
  private async messageReport(message: CheckedMessage, analysis: CheckInputs): Promise<MessageReport> {
    const authentication = message.authentication ? await message.authentication : null;
    return buildMessageReport(message.parsed, {
      htmlText: analysis.plainText?.text ?? null,
      bulk: message.bulk,
      authentication,
      uncheckedReason: ANONYMOUS_UNCHECKED,
    });
  }

  private async spamAssassin(previewId: string, html: string, analysis: CheckInputs, original: CheckedMessage | null): Promise<CheckedSpamReport | null> {
    const report = analysis.spamReport;
    const spamd = this.config.previews.spamAssassin;
    if (!report || !spamd) return report;
    // A whole message is judged as it is (its headers, its text part, its attachments); otherwise one is built around the HTML.
    const message = original
      ? Buffer.from(original.raw, 'utf8')
      : buildMimeMessage({
          html,
          text: analysis.plainText?.text ?? null,
          subject: analysis.inboxPreview?.subject ?? null,
          id: previewId,
          date: new Date(),
        });
    try {
      const verdict = await checkWithSpamd(message, spamd);
      // SpamAssassin saw the whole message (headers, its phrase rules, every rule the engine has no counterpart
      // for): its verdict decides the level, the engine's stays beside it.
      return {
        ...report,
        spamassassin: verdict,
        engineLevel: report.level,
        level: spamRiskLevel(verdict.score, verdict.threshold),
        levelSource: 'spamassassin',
        levelNote: `SpamAssassin's verdict: spamd scored the message ${verdict.score} (spam from ${verdict.threshold}); the engine's own estimate, ${report.level} risk from ${report.points} points, is kept as engineLevel.`,
      };
    } catch (error) {
      this.logger.warn(`preview ${previewId}: SpamAssassin check failed: ${(error as Error).message}`);
      return { ...report, spamassassin: null, notes: [`SpamAssassin check failed: ${(error as Error).message}`], levelSource: 'engine' };
    }
  }

  private async imageWeights(previewId: string, analysis: CheckInputs): Promise<CheckedReports['imageReport']> {
    const report = analysis.imageReport;
    if (!report) return report;
    if (!this.guard)
      return { ...report, totalBytes: null, notes: report.images.length > 0 ? ['Image weights were not measured: IMAGE_WEIGHT_CHECK is off.'] : [] };
    try {
      return await measureImageWeights(report, this.guard);
    } catch (error) {
      this.logger.warn(`preview ${previewId}: image weights failed: ${(error as Error).message}`);
      return { ...report, totalBytes: null, notes: [`Image weights could not be measured: ${(error as Error).message}`] };
    }
  }
}
