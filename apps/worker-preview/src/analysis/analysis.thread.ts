import type { MessagePort } from 'node:worker_threads';
import {
  analysisFailsGate,
  analyzeEmailKeepingParts,
  EMAIL_CLIENTS,
  EngineLimitError,
  fixEmail,
  gateResultOf,
  gateSuggestedFix,
  gateSummary,
  safeFixTargetCount,
  type AnalysisParts,
  type AnalyzeEmailOptions,
  type EmailFormat,
  type FixEmailOptions,
  type GateSuggestedFix,
  type GateSummary,
  type PreviewAnalysis,
} from '@mailproof/engine';
// The codec's own file, not the persistence barrel: the thread loads neither TypeORM nor Nest.
import { encodePreviewResult, encodeSharedPreviewResult, parsePreviewResult, type ClientNames } from '@mailproof/persistence/preview-result.codec';
// The fix answer's shape is a pure function of contracts; the barrel loads neither Nest nor the network code.
import { fixOutcomeBody, type CheckedReports, type PreviewGateOptions, type PreviewResultBody } from '@mailproof/contracts';
import { nowMs, type MeasuredSpan } from '@mailproof/tracing';
import type { CheckInputs } from '../preview-checks.service';

export interface AnalysisTask {
  previewId: string;
  /** The compiled HTML, analyzed as it is. */
  html: string;
  options: AnalyzeEmailOptions;
  /** Compiled formats carry their compiled HTML in the result (as the peer API gives it). */
  includeCompiledHtml: boolean;
  /**
   * The analysis span's W3C traceparent when the job is traced: the thread measures its steps (no tracer
   * runs in it) and hands them back in `phases`, which the main thread records under this parent.
   */
  traceparent?: string;
  /**
   * A gate run's analysis: the verdict options it can judge alone, and whether the message is bulk. When the
   * analysis fails them and has findings the safe fixes target, the task goes on to the run's suggested fix
   * after handing its outcome over (below).
   */
  gate?: PreviewGateOptions & { bulk: boolean };
  /**
   * Threaded runs only: where the thread asks the worker's main thread to run the network checks, and hands
   * its outcome over when it goes on to a suggested fix.
   */
  checksPort?: MessagePort;
}

/** Runs the network checks on the worker's main thread (which owns the sockets) and answers. */
export type CompleteChecks = (inputs: CheckInputs) => Promise<CheckedReports>;

/** How the checks answer over the port: their reports, or why they could not run (a bug: the job retries). */
export type ChecksReply = { reports: CheckedReports } | { error: string };

/** What the thread says over the port: the checks' inputs, then (a gate's analysis going on to its suggested fix) the outcome. */
export type ThreadMessage = { kind: 'checks'; inputs: CheckInputs } | { kind: 'outcome'; outcome: AnalysisOutcome };

/** Hands the analysis's outcome over before the task goes on (inline: to the pool directly). */
export type PostOutcome = (outcome: AnalysisOutcome) => void;

/**
 * How a gate's analysis task ends when it went on to the suggested fix after handing its outcome over: the
 * suggestion (null: the safe fixes resolve nothing, or the email is over an engine limit).
 */
export type SuggestedFixAhead = { kind: 'suggested-fix'; suggestedFix: GateSuggestedFix | null };

/**
 * The analysis leaves the thread as the stored result itself: the complete response JSON with each distinct
 * document and finding once, Brotli-compressed (~16 KB instead of a ~700 KB string to copy across threads, encode and compress on the event loop that
 * also serves BullMQ). The checks that need the network run on the main thread in between: the thread
 * hands them their inputs and waits for the completed reports. Errors lose their class crossing a thread
 * boundary, so engine limits come back as data. The gate's summary of the result (a few KB of JSON) comes
 * along, so a gate verdict never has to decompress and parse the whole result.
 */
export type AnalysisOutcome =
  { kind: 'analysis'; overallScore: number; storedResult: Uint8Array; gateSummary: string; phases?: MeasuredSpan[] } | { kind: 'limit'; message: string };

/** The names the findings spell out, so that one finding per client is stored once (encodeSharedPreviewResult). */
const CLIENT_NAMES: ClientNames = Object.fromEntries(EMAIL_CLIENTS.map((client) => [client.id, client.name]));

function checksOverPort(port: MessagePort): CompleteChecks {
  return (inputs) =>
    new Promise((resolve, reject) => {
      port.once('message', (reply: ChecksReply) => ('reports' in reply ? resolve(reply.reports) : reject(new Error(reply.error))));
      port.postMessage({ kind: 'checks', inputs } satisfies ThreadMessage);
    });
}

/**
 * Runs in a worker thread of the analysis pool (piscina calls it with the task alone), and inline, with
 * `completeChecksInline` and `postOutcomeInline`, where threads are off or cannot load the compiled file (ts-jest).
 * A gate's analysis that already fails the verdict and has findings the safe fixes target hands its outcome
 * over first (the verdict does not wait), then counts the suggested fix from this analysis's parse and findings,
 * sparing the fixer's first analysis of the same email, and ends with that (docs/gate.md, "Suggested fix").
 */
export default async function analyze(
  task: AnalysisTask,
  completeChecksInline?: CompleteChecks,
  postOutcomeInline?: PostOutcome,
): Promise<AnalysisOutcome | SuggestedFixAhead> {
  const { outcome, ahead } = await analyzeAndEncode(task, completeChecksInline);
  if (!ahead) {
    task.checksPort?.close();
    return outcome;
  }
  if (postOutcomeInline) {
    postOutcomeInline(outcome);
    // Inline, the caller stores the outcome before the fixer takes the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  } else {
    task.checksPort!.postMessage({ kind: 'outcome', outcome } satisfies ThreadMessage);
    task.checksPort!.close();
  }
  return { kind: 'suggested-fix', suggestedFix: suggestFrom(task, ahead) };
}

/**
 * The analysis, its checks and its stored result; with the analysis's parts when the task goes on to the suggested
 * fix. Its own function so that nothing else of the analysis (the clients' markup, the result) stays reachable
 * while the fixer runs: the fixer's scavenges would copy it again and again.
 */
async function analyzeAndEncode(task: AnalysisTask, completeChecksInline?: CompleteChecks): Promise<{ outcome: AnalysisOutcome; ahead: AnalysisParts | null }> {
  let analysis: PreviewAnalysis;
  let parts: AnalysisParts | null;
  const engineStart = nowMs();
  try {
    ({ analysis, parts } = analyzeEmailKeepingParts(task.html, task.options));
  } catch (error) {
    if (error instanceof EngineLimitError) return { outcome: { kind: 'limit', message: error.message }, ahead: null };
    task.checksPort?.close();
    throw error;
  }
  const engineEnd = nowMs();
  const completeChecks = completeChecksInline ?? checksOverPort(task.checksPort!);
  let checked: CheckedReports;
  try {
    checked = await completeChecks({
      spamReport: analysis.spamReport,
      imageReport: analysis.imageReport,
      plainText: analysis.plainText,
      inboxPreview: analysis.inboxPreview,
    });
  } catch (error) {
    task.checksPort?.close();
    throw error;
  }
  // The checked reports go last, after the engine's fields (the stored key order every reader sees).
  const { spamReport: _spam, imageReport: _images, ...others } = analysis;
  const result: PreviewResultBody = { ...others, ...checked, ...(task.includeCompiledHtml ? { compiledHtml: task.html } : {}) };
  const encodeStart = nowMs();
  const storedResult = encodeSharedPreviewResult(task.previewId, result, CLIENT_NAMES);
  // With how many findings the safe fixes target: 0 spares a failed verdict the fixer (docs/gate.md, "Suggested fix").
  const safeFixTargets = safeFixTargetCount(analysis);
  const summary = JSON.stringify({ ...gateSummary(result), ...(safeFixTargets === null ? {} : { safeFixTargets }) });
  const phases = task.traceparent
    ? [
        { name: 'engine', startMs: engineStart, endMs: engineEnd },
        { name: 'encode', startMs: encodeStart, endMs: nowMs() },
      ]
    : undefined;
  const outcome: AnalysisOutcome = { kind: 'analysis', overallScore: analysis.overallScore, storedResult, gateSummary: summary, phases };
  const ahead = task.gate && parts && safeFixTargets !== null && safeFixTargets > 0 && failsAlready(summary, task.gate, task.options.clients);
  return { outcome, ahead: ahead ? parts : null };
}

/** Whether the verdict fails on what the analysis alone decides, read from the summary the verdict step reads. */
function failsAlready(summary: string, gate: NonNullable<AnalysisTask['gate']>, clients: AnalyzeEmailOptions['clients']): boolean {
  const result = gateResultOf(JSON.parse(summary) as GateSummary);
  return analysisFailsGate(result, { threshold: gate.threshold, failOnError: gate.failOnError, checks: gate.checks, clients, bulk: gate.bulk });
}

/**
 * The suggestion the run's follow-up would compute (the same HTML, format and clients, no compile warnings: see
 * `suggestFix` below), its first ledger made from this analysis.
 */
function suggestFrom(task: AnalysisTask, analyzed: AnalysisParts): GateSuggestedFix | null {
  try {
    return gateSuggestedFix(task.html, { format: task.options.format ?? 'html', clients: task.options.clients, analyzed });
  } catch (error) {
    if (error instanceof EngineLimitError) return null;
    throw error;
  }
}

/** The second kind of task: one fix run's fixes (piscina runs it by name, `fix`). */
export interface FixTask {
  fixRunId: string;
  /** The compiled HTML, patched as it is. */
  html: string;
  options: FixEmailOptions & { format: NonNullable<FixEmailOptions['format']> };
}

/** The stored answer (Brotli JSON, id first), or the engine limit the email is over (as data: errors lose their class crossing threads). */
export type FixOutcome = { kind: 'fix'; storedResult: Uint8Array; applied: number } | { kind: 'limit'; message: string };

/**
 * Applies the fixes and encodes the answer, in a thread of the analysis pool: fixEmail analyzes the email
 * at least twice (before, and after to verify), as CPU-heavy as a preview's analysis.
 */
export function fix(task: FixTask): FixOutcome {
  try {
    const result = fixEmail(task.html, task.options);
    return { kind: 'fix', storedResult: encodePreviewResult(task.fixRunId, fixOutcomeBody(result, task.options.format)), applied: result.applied.length };
  } catch (error) {
    if (error instanceof EngineLimitError) return { kind: 'limit', message: error.message };
    throw error;
  }
}

/**
 * The third kind of task: a failed gate verdict's suggested fix (piscina runs it by name, `suggestFix`).
 * The email is the one the gate analyzed: an html preview's source, or the compiled HTML inside a
 * template's stored result (decoded here, off the worker's event loop).
 */
export interface SuggestFixTask {
  format: EmailFormat;
  /** The clients the gate checked. */
  clients: string[];
  email: { html: string } | { storedResult: Uint8Array };
}

/** How many findings the safe fixes resolve and the request that applies them; null when none (or the email is over an engine limit). */
export function suggestFix(task: SuggestFixTask): GateSuggestedFix | null {
  const { email } = task;
  const html =
    'html' in email
      ? email.html
      : parsePreviewResult(Buffer.from(email.storedResult.buffer, email.storedResult.byteOffset, email.storedResult.byteLength)).compiledHtml;
  if (!html) return null;
  try {
    return gateSuggestedFix(html, { format: task.format, clients: task.clients });
  } catch (error) {
    if (error instanceof EngineLimitError) return null;
    throw error;
  }
}
