/**
 * V8 heap limits of an analysis thread. `npm run bench:api` and `npm run bench:engine` run the engine
 * with the same, so that what they measure is what the worker runs.
 * Old generation: an email at the engine's limits needs far less; a runaway one stops here.
 * Young generation: an analysis allocates tens of megabytes of short-lived strings and objects; with
 * V8's default (16 MB) it scavenges several times per email and promotes survivors to the old
 * generation. 64 MB cut the GC threads' CPU by about a fifth and GC pauses by about a quarter.
 * (No imports: the benchmarks load this file on its own.)
 */
export const ANALYSIS_THREAD_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 } as const;
