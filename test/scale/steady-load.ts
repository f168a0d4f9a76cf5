/** One answer of the steady load: what a client saw, and when (ms since the epoch). */
export interface LoadAnswer {
  status: number;
  /** The preview id, when the answer carried one (200, or a 503 that left the preview queued). */
  id?: string;
  code?: string;
  retryAfter: string | null;
  contentType: string | null;
  startedAt: number;
  endedAt: number;
  /** Set when no answer came: a refused connection or the client's timeout. */
  error?: string;
}

/**
 * Steady load for the fault suites: `connections` clients, each POSTing one request after the other to
 * `url` until stopped, with a client timeout (a request that hangs is an answer too: an error). Every
 * answer is kept, so a test can say what clients saw before, during and after an outage.
 */
export function startSteadyLoad(options: {
  url: string;
  body: (n: number) => unknown;
  headers?: Record<string, string>;
  connections?: number;
  timeoutMs?: number;
}): { answers: LoadAnswer[]; stop(): Promise<LoadAnswer[]> } {
  const answers: LoadAnswer[] = [];
  let running = true;
  let n = 0;
  const one = async (): Promise<void> => {
    const startedAt = Date.now();
    try {
      const res = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(options.body(n++)),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const text = await res.text();
      let body: { id?: unknown; code?: unknown } = {};
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the status and headers still say what happened.
      }
      answers.push({
        status: res.status,
        id: typeof body.id === 'string' ? body.id : undefined,
        code: typeof body.code === 'string' ? body.code : undefined,
        retryAfter: res.headers.get('retry-after'),
        contentType: res.headers.get('content-type'),
        startedAt,
        endedAt: Date.now(),
      });
    } catch (error) {
      answers.push({
        status: 0,
        retryAfter: null,
        contentType: null,
        startedAt,
        endedAt: Date.now(),
        error: error instanceof Error ? error.message : String(error),
      });
      // A refused connection answers at once: do not spin.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const clients = Array.from({ length: options.connections ?? 4 }, async () => {
    while (running) await one();
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(clients);
      return answers;
    },
  };
}

/** Counts of each status among `answers`, e.g. { "200": 51, "503": 12 }. */
export function statusCounts(answers: LoadAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}
