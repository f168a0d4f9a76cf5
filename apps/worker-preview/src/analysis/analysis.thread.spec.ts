import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePreviewResult } from '@mailproof/persistence';
import analyze, { suggestFix, type AnalysisOutcome, type AnalysisTask, type CompleteChecks } from './analysis.thread';

/**
 * The stored result is written in pieces (preview-result.codec.ts); the response must stay the bytes
 * the whole result's JSON.stringify gives, for real analyses: these run the engine as the thread does.
 */
describe('the analysis thread', () => {
  const fixture = (name: string) => readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'cli', name), 'utf8');
  const emails: Array<[string, string]> = [
    ['clean.html', fixture('clean.html')],
    ['with-errors.html', fixture('with-errors.html')],
    [
      'non-ASCII text, dark colors and an image',
      '<html><body style="background:#fff;color:#111"><h1>Grüße — 你好 🙂</h1><p style="display:flex">“Quoted” – text</p><img src="https://example.com/a.png" alt="ü"></body></html>',
    ],
  ];

  it.each(emails)('stores %s as the id followed by JSON.stringify of the result, byte for byte', async (_name, html) => {
    const outcome = (await analyze(
      { previewId: 'prv_abcdefghijklmnopqrstuvwx', html, options: { format: 'html' }, includeCompiledHtml: true },
      async (inputs) => ({
        spamReport: inputs.spamReport,
        imageReport: inputs.imageReport ? { ...inputs.imageReport, totalBytes: 1234 } : inputs.imageReport,
        messageReport: null,
      }),
    )) as Extract<AnalysisOutcome, { kind: 'analysis' }>;
    expect(outcome.kind).toBe('analysis');
    const stored = decodePreviewResult(Buffer.from(outcome.storedResult));
    const completed = JSON.parse(stored.toString('utf8')) as Record<string, unknown>;
    const { id, ...result } = completed;
    expect(id).toBe('prv_abcdefghijklmnopqrstuvwx');
    expect(Object.keys(result)).toEqual(expect.arrayContaining(['overallScore', 'spamReport', 'imageReport', 'compiledHtml']));
    expect(stored.equals(Buffer.from(`{"id":"prv_abcdefghijklmnopqrstuvwx",${JSON.stringify(result).slice(1)}`, 'utf8'))).toBe(true);
    expect(stored.length).toBeGreaterThan(10_000);
  });

  describe("a gate's analysis", () => {
    // A layout table without its role and a font stack without a generic family (safe fixes), display:flex (errors in Word).
    const html =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt</title></head><body><table width="600"><tr>' +
      '<td style="display:flex;font-family:\'Brand Sans\'"><p>Thanks for your order.</p><a href="#">See your order</a></td></tr></table></body></html>';
    const clients = ['gmail-web', 'outlook-windows-legacy'] as const;
    const task = (gate?: AnalysisTask['gate']): AnalysisTask => ({
      previewId: 'prv_abcdefghijklmnopqrstuvwx',
      html,
      options: { format: 'html', clients: [...clients] },
      includeCompiledHtml: false,
      ...(gate ? { gate } : {}),
    });
    const checks: CompleteChecks = async (inputs) => ({ spamReport: inputs.spamReport, imageReport: inputs.imageReport, messageReport: null });
    const decoded = (outcome: AnalysisOutcome) =>
      outcome.kind === 'analysis' ? { ...outcome, storedResult: decodePreviewResult(Buffer.from(outcome.storedResult)).toString('utf8') } : outcome;

    it('that fails the verdict hands its outcome over, then ends with the suggested fix the follow-up would compute', async () => {
      const plain = (await analyze(task(), checks)) as AnalysisOutcome;
      const posted: AnalysisOutcome[] = [];
      const end = await analyze(
        task({ threshold: 70, failOnError: true, checks: ['compatibility', 'content', 'regression', 'message'], bulk: false }),
        checks,
        (outcome) => posted.push(outcome),
      );
      expect(posted).toHaveLength(1);
      // The outcome handed over is the one a preview's analysis returns.
      expect(decoded(posted[0])).toEqual(decoded(plain));
      expect(JSON.parse((plain as Extract<AnalysisOutcome, { kind: 'analysis' }>).gateSummary).safeFixTargets).toBeGreaterThan(0);
      const followUp = suggestFix({ format: 'html', clients: [...clients], email: { html } });
      expect(followUp?.fixable).toBeGreaterThanOrEqual(1);
      expect(end).toEqual({ kind: 'suggested-fix', suggestedFix: followUp });
    });

    it('that the analysis alone does not fail (or with only families it cannot judge) ends with its outcome, nothing handed over', async () => {
      for (const gate of [
        { threshold: 0, failOnError: false, checks: ['compatibility' as const], bulk: false },
        { threshold: 100, failOnError: true, checks: ['regression' as const, 'visual' as const], bulk: false },
      ]) {
        const posted: AnalysisOutcome[] = [];
        const end = await analyze(task(gate), checks, (outcome) => posted.push(outcome));
        expect(posted).toEqual([]);
        expect(end.kind).toBe('analysis');
      }
    });
  });
});
