import { gateSuggestedFix, gateVerdict, type ClientId, type GateCheckFamily } from '@mailproof/engine';
import { analyzeEmailInput } from './email-analysis';
import type { EmailInput } from './email-input';
import type { GateVerdictResponse } from './gate-client';

export interface LocalGateOptions {
  threshold?: number;
  checks?: GateCheckFamily[];
  clients?: ClientId[];
  failOnError: boolean;
}

/** The families `--local` can run: no server means no baselines, no link fetching and no DNS audit for the message check. */
export const LOCAL_CHECKS: readonly GateCheckFamily[] = ['compatibility', 'content'];

/**
 * `mailproof gate --local`: compile and analyze in this process (as `analyze` does), then decide with the
 * engine's own verdict, the one the server's verdict step uses. Answers in the server's verdict shape,
 * with no baseline, no fetched links and no run or preview ids, and a failed verdict's `suggestedFix` computed
 * inline, before it answers (the server computes it after its verdict, which then says `{ pending: true }`). Throws what `analyzeEmailInput` throws (and what `gateSuggestedFix` does: engine limits).
 */
export async function localGate(input: EmailInput, options: LocalGateOptions): Promise<GateVerdictResponse> {
  const { analysis, compiledHtml, compileWarnings } = await analyzeEmailInput(input, options.clients);
  const verdict = gateVerdict({
    result: analysis,
    options: { threshold: options.threshold, checks: options.checks ?? LOCAL_CHECKS, clients: options.clients ?? null, failOnError: options.failOnError },
  });
  // As the server's verdict step: a failed verdict names what the safe fixes would resolve.
  const suggestedFix = verdict.passed ? null : gateSuggestedFix(compiledHtml, { format: input.format, clients: options.clients ?? null, compileWarnings });
  return {
    passed: verdict.passed,
    overallScore: verdict.overallScore,
    worstClient: verdict.worstClient,
    baseline: { ref: null, comparedTo: null },
    failures: verdict.failures,
    notes: verdict.notes,
    checks: verdict.checks,
    links: { resolved: false, checked: 0, unchecked: [] },
    ...(suggestedFix ? { suggestedFix } : {}),
    runId: null,
    previewId: null,
  };
}
