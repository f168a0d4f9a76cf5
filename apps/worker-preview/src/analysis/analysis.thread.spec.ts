import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePreviewResult } from '@mailproof/persistence';
import analyze, { type AnalysisOutcome } from './analysis.thread';

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
});
