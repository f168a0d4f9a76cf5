import { randomBytes } from 'node:crypto';
import { DEVELOPMENT_DATA_KEYS } from './data-keys';
import { loadConfig } from './load-config';

const key = () => randomBytes(32).toString('base64');
const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://p/db', REDIS_URL: 'redis://r:6379', PUBLIC_BASE_URL: 'https://m.example' };

describe('MAILPROOF_DATA_KEYS', () => {
  it('reads several keys in order: the first wraps new data keys', () => {
    const [k2, k1] = [key(), key()];
    const config = loadConfig({ MAILPROOF_DATA_KEYS: `k2:${k2},k1:${k1}` });
    expect(config.encryption.keys.map((k) => [k.id, k.key.toString('base64')])).toEqual([
      ['k2', k2],
      ['k1', k1],
    ]);
    expect(config.encryption.development).toBe(false);
  });

  it('refuses to start in production without keys, naming the variable', () => {
    expect(() => loadConfig(production)).toThrow(/MAILPROOF_DATA_KEYS: is required when NODE_ENV=production/);
    expect(loadConfig({ ...production, MAILPROOF_DATA_KEYS: `prod1:${key()}` }).encryption.keys[0].id).toBe('prod1');
    expect(() => loadConfig({ ...production, MAILPROOF_DATA_KEYS: `prod1:${key()},${DEVELOPMENT_DATA_KEYS}` })).toThrow(/holds the built-in development key/);
  });

  it('uses the built-in development key outside production, and says so', () => {
    const config = loadConfig({});
    expect(config.encryption.development).toBe(true);
    expect(config.encryption.keys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(',')).toBe(DEVELOPMENT_DATA_KEYS);
  });

  it.each([
    ['not id:key pairs', 'just-a-key', /MAILPROOF_DATA_KEYS: must be id:base64key pairs/],
    ['a short key', `k1:${randomBytes(16).toString('base64')}`, /MAILPROOF_DATA_KEYS: key "k1" is 16 bytes once decoded; each key must be 32 bytes/],
    ['an id twice', `k1:${key()},k1:${key()}`, /MAILPROOF_DATA_KEYS: key id "k1" appears twice/],
    ['an empty pair', `k1:${key()},`, /MAILPROOF_DATA_KEYS: must be id:base64key pairs/],
  ])('stops the start on %s', (_name, value, message) => {
    expect(() => loadConfig({ MAILPROOF_DATA_KEYS: value })).toThrow(message);
  });
});
