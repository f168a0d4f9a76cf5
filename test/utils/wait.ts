/** Polls until `check` returns a truthy value; fails with `what` after the deadline. Every wait in a test has one. */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs = 15_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
