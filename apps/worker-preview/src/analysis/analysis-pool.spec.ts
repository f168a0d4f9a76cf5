import { analysisPoolOptions } from './analysis-pool';
import { ANALYSIS_THREAD_LIMITS } from './analysis-thread-limits';

describe('the analysis pool', () => {
  it('starts one thread per unit of preview concurrency and never ends one for being idle (docs/gate.md)', () => {
    for (const concurrency of [1, 2, 6]) {
      const options = analysisPoolOptions('/dist/analysis.thread.js', concurrency);
      // piscina ends idle threads only above minThreads: with minThreads at maxThreads, none.
      expect(options).toMatchObject({ filename: '/dist/analysis.thread.js', minThreads: concurrency, maxThreads: concurrency });
      expect(options.resourceLimits).toEqual(ANALYSIS_THREAD_LIMITS);
    }
  });
});
