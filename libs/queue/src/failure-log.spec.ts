import { FailureLog } from './failure-log';

describe('FailureLog', () => {
  const target = () => {
    const lines: string[] = [];
    return { lines, logger: { warn: (message: string) => lines.push(`warn ${message}`), log: (message: string) => lines.push(`log ${message}`) } };
  };

  it('logs the first failure of an outage once, counts the rest, and logs the recovery once with the count', async () => {
    const { lines, logger } = target();
    const log = new FailureLog('link-check cache (Redis)', logger);
    expect(await log.orElse(Promise.resolve('hit'), null)).toBe('hit');
    for (let i = 0; i < 3; i++) expect(await log.orElse(Promise.reject(new Error('Connection is closed.')), null)).toBeNull();
    expect(await log.orElse(Promise.resolve('hit'), null)).toBe('hit');
    expect(await log.orElse(Promise.resolve('hit'), null)).toBe('hit');
    expect(lines).toEqual([
      'warn link-check cache (Redis) failed: Connection is closed. (further failures are counted, not logged, until it works again)',
      'log link-check cache (Redis) works again after 3 failures',
    ]);
  });

  it('logs each outage, not only the first', async () => {
    const { lines, logger } = target();
    const log = new FailureLog('marker', logger);
    log.failed(new Error('one'));
    log.succeeded();
    log.failed('two');
    expect(lines).toEqual([
      'warn marker failed: one (further failures are counted, not logged, until it works again)',
      'log marker works again after 1 failure',
      'warn marker failed: two (further failures are counted, not logged, until it works again)',
    ]);
  });
});
