/**
 * Settles like `work`, or rejects with `onTimeout()` once `ms` have passed, whichever comes first.
 * The work itself is not canceled (a promise cannot be): whoever uses this must accept that it
 * may still complete later.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
