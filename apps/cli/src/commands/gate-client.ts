/**
 * The HTTP side of `mailproof gate`: one POST /api/gate through the typed API client (api-client/, generated
 * from the API's OpenAPI document), retried on 429, 5xx and network failures (the answers a retry can
 * change), honoring Retry-After.
 */
import type { GateVerdictResult } from '@mailproof/contracts';
import { createMailproofClient, type GateRequest, type MailproofApiClient } from '../api-client';

/** The request body of POST /api/gate, as the OpenAPI document types it; unset fields take the server's defaults. */
export type GateRequestBody = GateRequest & { html: string };

/**
 * The verdict as the server sends it (the contract's GateVerdictResult, docs/gate.md), kept as received for
 * --json. `--local` answers the same shape without a run: its runId is null.
 */
export type GateVerdictResponse = Omit<GateVerdictResult, 'runId'> & { runId: string | null };

/** A problem+json body (docs/errors.md), or what could be made of a body that is not one. */
export interface GateProblem {
  status?: number;
  code?: string;
  title?: string;
  detail?: string;
  errors?: Array<{ field?: string; message?: string }>;
  line?: number;
  column?: number;
  /** The run the server started, on a 503: the retry reads it instead of starting another. */
  runId?: string;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Upper bound of one wait, in milliseconds (Retry-After is at most 60 s by contract). */
  maxWaitMs: number;
  /** Per-request timeout, in milliseconds. */
  timeoutMs: number;
}

/** The API never asks for more than 60 seconds in Retry-After; a server saying more is capped. */
export const RETRY_AFTER_CAP_MS = 60_000;

/** The outcome of one gate request once retries are over. */
export type GateCallResult =
  | { kind: 'verdict'; verdict: GateVerdictResponse; attempts: number }
  | { kind: 'problem'; status: number; problem: GateProblem; attempts: number }
  | { kind: 'unreachable'; message: string; attempts: number };

type Attempt = GateCallResult & { retryAfterMs?: number };

/** Statuses worth another try: the rate limiter, and the server or its pipeline being busy or broken. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Retry-After as whole seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Why fetch failed, in a word people recognize (ECONNREFUSED, ENOTFOUND, a timeout). */
function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function isVerdict(body: unknown): body is GateVerdictResponse {
  const verdict = body as Partial<GateVerdictResponse> | null;
  return typeof verdict === 'object' && verdict !== null && typeof verdict.passed === 'boolean' && Array.isArray(verdict.failures);
}

/** A problem body as openapi-fetch hands it over: parsed JSON when it was JSON, else the text. */
function problemFrom(status: number, statusText: string, body: unknown): GateProblem {
  if (typeof body === 'object' && body !== null) return { ...(body as GateProblem), status };
  return { status, title: statusText || `HTTP ${status}` };
}

async function attemptOnce(client: MailproofApiClient, body: GateRequestBody, timeoutMs: number): Promise<Attempt> {
  let outcome: { response: Response; data?: unknown; error?: unknown };
  try {
    outcome = await client.POST('/api/gate', { body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    // A 200 whose body is not JSON (a proxy's page): openapi-fetch cannot parse it.
    if (error instanceof SyntaxError) return notAVerdict();
    return { kind: 'unreachable', message: describeNetworkError(error, timeoutMs), attempts: 1 };
  }
  const { response } = outcome;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  if (response.status === 200) return isVerdict(outcome.data) ? { kind: 'verdict', verdict: outcome.data, attempts: 1 } : notAVerdict();
  return { kind: 'problem', status: response.status, problem: problemFrom(response.status, response.statusText, outcome.error), attempts: 1, retryAfterMs };
}

function notAVerdict(): Attempt {
  return { kind: 'problem', status: 200, problem: { status: 200, title: 'the answer is not a gate verdict (is --api-url a Mailproof server?)' }, attempts: 1 };
}

/** What a stored run's failure code answers as, the way POST /api/gate answers it. */
const RUN_FAILURE_STATUS: Record<string, number> = { compile_failed: 422, url_declined: 400, url_unreachable: 400, payload_too_large: 413 };

/**
 * Reads a run the server accepted but did not finish within its budget (503 with `runId`): retrying the
 * POST would start a second run of the same email, so the retry asks for this one instead. Still running
 * reads as a 503 (retryable); a finished run is its verdict or its problem.
 */
async function readRunOnce(client: MailproofApiClient, runId: string, timeoutMs: number): Promise<Attempt> {
  let outcome: { response: Response; data?: unknown; error?: unknown };
  try {
    outcome = await client.GET('/api/gate/runs/{id}', { params: { path: { id: runId } }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof SyntaxError) return notAVerdict();
    return { kind: 'unreachable', message: describeNetworkError(error, timeoutMs), attempts: 1 };
  }
  const { response } = outcome;
  if (response.status !== 200)
    return { kind: 'problem', status: response.status, problem: problemFrom(response.status, response.statusText, outcome.error), attempts: 1 };
  const run = (outcome.data ?? {}) as { status?: string; verdict?: unknown; failure?: { code?: string; message?: string } | null };
  if (run.status === 'completed' && isVerdict(run.verdict)) return { kind: 'verdict', verdict: run.verdict, attempts: 1 };
  if (run.status === 'failed') {
    const code = run.failure?.code ?? 'internal_error';
    const status = RUN_FAILURE_STATUS[code] ?? 500;
    return { kind: 'problem', status, problem: { status, code, title: 'gate run failed', detail: run.failure?.message }, attempts: 1 };
  }
  return {
    kind: 'problem',
    status: 503,
    problem: { status: 503, code: 'service_unavailable', title: 'still running', detail: `Gate run ${runId} has not finished yet.`, runId },
    attempts: 1,
  };
}

/** Without Retry-After: 2 s, then 4 s, and so on. */
function backoffMs(attempt: number): number {
  return 2000 * 2 ** (attempt - 1);
}

export interface RetryNotice {
  attempt: number;
  attempts: number;
  waitMs: number;
  /** Whether the wait came from the server's Retry-After. */
  fromRetryAfter: boolean;
  /** The server's Retry-After before any cap, in ms. */
  retryAfterMs?: number;
  reason: string;
}

/**
 * POSTs the gate request, retrying 429, 5xx and network failures up to `policy.attempts` times in all.
 * After a 503 that names the run the server started, the retries read that run instead of posting again.
 * Each wait is the server's Retry-After (capped at 60 s) or a short backoff, never more than
 * `policy.maxWaitMs`. Other statuses (400, 401, 403, 413, 422) are answers, not accidents: no retry.
 */
export async function callGate(
  apiUrl: string,
  apiKey: string,
  body: GateRequestBody,
  policy: RetryPolicy,
  onRetry: (notice: RetryNotice) => void,
): Promise<GateCallResult> {
  const client = createMailproofClient({ baseUrl: apiUrl, apiKey });
  let acceptedRunId: string | undefined;
  for (let attempt = 1; ; attempt += 1) {
    const result = acceptedRunId ? await readRunOnce(client, acceptedRunId, policy.timeoutMs) : await attemptOnce(client, body, policy.timeoutMs);
    if (result.kind === 'problem' && result.status === 503 && typeof result.problem.runId === 'string') acceptedRunId = result.problem.runId;
    const retryable = result.kind === 'unreachable' || (result.kind === 'problem' && isRetryableStatus(result.status));
    if (!retryable || attempt >= policy.attempts) {
      const { retryAfterMs: _ignored, ...final } = result;
      return { ...final, attempts: attempt } as GateCallResult;
    }
    const fromRetryAfter = result.retryAfterMs !== undefined;
    const wanted = fromRetryAfter ? Math.min(result.retryAfterMs as number, RETRY_AFTER_CAP_MS) : backoffMs(attempt);
    const waitMs = Math.max(0, Math.min(wanted, policy.maxWaitMs));
    const reason = result.kind === 'unreachable' ? result.message : describeStatus(result.status, result.problem);
    onRetry({ attempt, attempts: policy.attempts, waitMs, fromRetryAfter, retryAfterMs: result.retryAfterMs, reason });
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** `HTTP 422 compile_failed` style: the status and the problem's stable code when there is one. */
export function describeStatus(status: number, problem: GateProblem): string {
  return `HTTP ${status}${problem.code ? ` ${problem.code}` : ''}`;
}
