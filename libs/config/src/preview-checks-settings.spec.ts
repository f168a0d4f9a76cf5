import { loadConfig } from './load-config';

describe('preview worker checks settings', () => {
  it('leaves SpamAssassin off and image weights on by default', () => {
    const config = loadConfig({});
    expect(config.previews.spamAssassin).toBeNull();
    expect(config.previews.imageWeightCheck).toBe(true);
  });

  it('treats an empty SPAMASSASSIN_HOST (as in .env.example) as unset', () => {
    expect(loadConfig({ SPAMASSASSIN_HOST: '' }).previews.spamAssassin).toBeNull();
  });

  it('reads spamd as host:port, IPv6 in brackets, with its timeout', () => {
    expect(loadConfig({ SPAMASSASSIN_HOST: '127.0.0.1:783', SPAMASSASSIN_TIMEOUT_MS: '1500' }).previews.spamAssassin).toEqual({
      host: '127.0.0.1',
      port: 783,
      timeoutMs: 1500,
    });
    expect(loadConfig({ SPAMASSASSIN_HOST: '[::1]:7830' }).previews.spamAssassin).toEqual({ host: '::1', port: 7830, timeoutMs: 3000 });
    expect(loadConfig({ SPAMASSASSIN_HOST: 'spamd.internal:783' }).previews.spamAssassin).toMatchObject({ host: 'spamd.internal', port: 783 });
  });

  it.each([['spamd'], ['http://spamd:783'], ['127.0.0.1:']])('refuses SPAMASSASSIN_HOST=%s', (value) => {
    expect(() => loadConfig({ SPAMASSASSIN_HOST: value })).toThrow(/SPAMASSASSIN_HOST/);
  });

  it('turns image weights off, and refuses anything but on or off', () => {
    expect(loadConfig({ IMAGE_WEIGHT_CHECK: 'off' }).previews.imageWeightCheck).toBe(false);
    expect(() => loadConfig({ IMAGE_WEIGHT_CHECK: 'maybe' })).toThrow(/IMAGE_WEIGHT_CHECK/);
    expect(() => loadConfig({ SPAMASSASSIN_TIMEOUT_MS: '50' })).toThrow(/SPAMASSASSIN_TIMEOUT_MS/);
  });
});
