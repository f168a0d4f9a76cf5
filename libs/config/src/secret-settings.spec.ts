import { randomBytes } from 'node:crypto';
import { ConfigValidationError } from './config.error';
import { DEVELOPMENT_DATA_KEYS } from './data-keys';
import { loadConfig } from './load-config';
import { SECRET_SETTINGS } from './secret-settings';

const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://p/db', REDIS_URL: 'redis://r:6379', PUBLIC_BASE_URL: 'https://m.example' };
const realKeys = `k1:${randomBytes(32).toString('base64')}`;

/** The problems loadConfig reports for this environment (none: it started). */
function problemsOf(env: Record<string, string>): Array<{ variable: string; message: string }> {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    return error.problems;
  }
}

describe('secret settings holding a placeholder', () => {
  // Each secret setting, with a value that passes its format rule but was copied from a template.
  const placeholders: Record<(typeof SECRET_SETTINGS)[number], string> = {
    DATABASE_URL: 'postgres://mailproof:change-me@db.internal:5432/mailproof',
    REDIS_URL: 'rediss://default:CHANGEME@redis.internal:6379',
    RATE_LIMIT_REDIS_URL: 'redis://default:replace_me@limits.internal:6379',
    METRICS_TOKEN: 'change-me-to-a-long-random-token',
    MAILPROOF_DATA_KEYS: 'k1:change-me-openssl-rand-base64-32-000000000=',
  };

  it.each(Object.entries(placeholders))(
    'refuses %s at start, in production and in development, naming the variable and not echoing the value',
    (variable, value) => {
      for (const base of [{ ...production, MAILPROOF_DATA_KEYS: realKeys }, {}]) {
        const problems = problemsOf({ ...base, [variable]: value });
        expect(problems).toEqual([{ variable, message: expect.stringContaining('holds a placeholder') }]);
        expect(JSON.stringify(problems)).not.toContain(value);
      }
    },
  );

  it('accepts real values of every secret setting', () => {
    const token = randomBytes(24).toString('base64url');
    const env = {
      ...production,
      DATABASE_URL: `postgres://mailproof:${token}@db.internal:5432/mailproof`,
      REDIS_URL: `rediss://default:${token}@redis.internal:6379`,
      RATE_LIMIT_REDIS_URL: `redis://default:${token}@limits.internal:6379`,
      METRICS_TOKEN: token,
      MAILPROOF_DATA_KEYS: realKeys,
    };
    expect(problemsOf(env)).toEqual([]);
  });

  it('refuses the public development data key in production only', () => {
    expect(problemsOf({ ...production, MAILPROOF_DATA_KEYS: `${realKeys},${DEVELOPMENT_DATA_KEYS}` })).toEqual([
      { variable: 'MAILPROOF_DATA_KEYS', message: expect.stringContaining('the built-in development key, which is public') },
    ]);
    expect(problemsOf({ MAILPROOF_DATA_KEYS: DEVELOPMENT_DATA_KEYS })).toEqual([]);
  });

  it('names a malformed secret without echoing it, and a malformed plain setting with its value', () => {
    const problems = problemsOf({ METRICS_TOKEN: 'short secret', LOG_LEVEL: 'loud' });
    expect(problems.map((problem) => problem.variable).sort()).toEqual(['LOG_LEVEL', 'METRICS_TOKEN']);
    expect(JSON.stringify(problems)).not.toContain('short secret');
    expect(problems.find((problem) => problem.variable === 'LOG_LEVEL')?.message).toContain('(got "loud")');
  });
});
