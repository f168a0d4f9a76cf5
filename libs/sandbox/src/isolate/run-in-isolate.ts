import type IsolatedVm from 'isolated-vm';
import ivm from './isolated-vm';
import type { ResolvedLimits } from '../compile-limits';
import type { IsolateImage } from './isolate-image';

/** What the isolate-side entry function returns (as JSON): the result or the template's own error. */
export type IsolateOutcome<T> = { ok: true; value: T } | { ok: false; message: string; line?: number; column?: number };

export type IsolateFailureKind = 'timeout' | 'memory' | 'crash';

/** The isolate was stopped from outside: time limit, memory limit or an unexpected engine error. */
export class IsolateFailure extends Error {
  constructor(
    readonly kind: IsolateFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export interface IsolateRunRequest {
  /** Trusted code the isolate starts with (never built from user input). */
  image: IsolateImage;
  /** Name of a global function `(input: string) => string | Promise<string>` defined by the snapshot. */
  entry: string;
  /** Passed in as a copied string: no host object or reference ever enters the isolate. */
  input: string;
  limits: ResolvedLimits;
}

// The watchdog fires a little after isolated-vm's own timeout, which only covers synchronous execution.
const WATCHDOG_GRACE_MS = 250;
// Output beyond this is not a plausible email; refuse it rather than copy it into the host.
const MAX_OUTPUT_CHARS = 8_000_000;

/**
 * Runs `entry(input)` in a fresh isolate created from the snapshot, with a memory limit and a wall-clock
 * limit, and disposes the isolate afterwards. The async isolated-vm APIs run the code on another thread,
 * so the caller's event loop keeps turning (and the watchdog can fire) while untrusted code runs.
 */
export async function runInIsolate<T>(request: IsolateRunRequest): Promise<IsolateOutcome<T>> {
  const { timeoutMs, memoryLimitMb } = request.limits;
  const { image } = request;
  const isolate = new ivm.Isolate({ snapshot: image.snapshot, memoryLimit: memoryLimitMb });
  let watchdogFired = false;
  const watchdog = setTimeout(() => {
    watchdogFired = true;
    if (!isolate.isDisposed) isolate.dispose();
  }, timeoutMs + WATCHDOG_GRACE_MS);
  const startedAt = Date.now();
  try {
    const context = await isolate.createContext();
    if (!image.snapshot) {
      for (const script of image.scripts) {
        const compiled = await isolate.compileScript(script.code, { filename: script.filename });
        await compiled.run(context, { timeout: timeoutMs });
      }
    }
    const raw: unknown = await context.evalClosure(
      `return Promise.resolve(globalThis[$0]($1)).then(function (r) { return typeof r === 'string' ? r : JSON.stringify({ ok: false, message: 'Renderer returned no output' }); });`,
      [request.entry, request.input],
      { timeout: timeoutMs, arguments: { copy: true }, result: { promise: true, copy: true } },
    );
    if (typeof raw !== 'string') throw new IsolateFailure('crash', 'The sandbox returned no output');
    if (raw.length > MAX_OUTPUT_CHARS) {
      return { ok: false, message: `The compiled output exceeds ${MAX_OUTPUT_CHARS} characters` };
    }
    return parseOutcome<T>(raw);
  } catch (error) {
    throw classifyFailure(error, { watchdogFired, isolate, startedAt, timeoutMs });
  } finally {
    clearTimeout(watchdog);
    if (!isolate.isDisposed) isolate.dispose();
  }
}

function parseOutcome<T>(raw: string): IsolateOutcome<T> {
  try {
    const parsed = JSON.parse(raw) as IsolateOutcome<T>;
    if (parsed && typeof parsed === 'object' && typeof parsed.ok === 'boolean') return parsed;
  } catch {
    // Fall through: malformed output is reported like any other renderer failure.
  }
  return { ok: false, message: 'The sandbox returned malformed output' };
}

function classifyFailure(
  error: unknown,
  state: { watchdogFired: boolean; isolate: IsolatedVm.Isolate; startedAt: number; timeoutMs: number },
): IsolateFailure | Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/memory limit/i.test(message)) return new IsolateFailure('memory', 'memory limit exceeded');
  if (state.watchdogFired || /timed out/i.test(message)) {
    return new IsolateFailure('timeout', `time limit of ${state.timeoutMs} ms exceeded`);
  }
  if (/disposed/i.test(message)) {
    // A dispose we did not ask for is V8 giving up, which in practice is the heap limit.
    return new IsolateFailure('memory', 'memory limit exceeded');
  }
  // Errors thrown by the template itself (a throw inside the isolate that escaped the entry's catch).
  return error instanceof Error ? error : new Error(message);
}
