import { ConfigValidationError } from './config.error';
import { loadConfig } from './load-config';
import { parseDuration } from './mailproof.config';

describe('deliverability settings', () => {
  it('has production-sensible defaults', () => {
    expect(loadConfig({}).deliverability).toEqual({
      dnsServers: ['1.1.1.1', '1.0.0.1'],
      dnsProtocol: 'https',
      dnsTimeoutMs: 2500,
      dnsTries: 2,
      cacheMaxTtlSeconds: 3600,
      cacheNegativeTtlSeconds: 60,
      auditIntervalMs: 6 * 3_600_000,
      budgetMs: 10_000,
      domainLimits: { free: 3, pro: 50 },
    });
  });

  it('reads servers, protocol, interval and limits', () => {
    const config = loadConfig({
      DNS_SERVERS: ' 127.0.0.1:8053, [::1]:853 ,dns.example:443',
      DNS_PROTOCOL: 'http',
      DOMAIN_AUDIT_INTERVAL: '15m',
      DOMAIN_LIMIT_FREE: '1',
    });
    expect(config.deliverability).toMatchObject({
      dnsServers: ['127.0.0.1:8053', '[::1]:853', 'dns.example:443'],
      dnsProtocol: 'http',
      auditIntervalMs: 900_000,
      domainLimits: { free: 1, pro: 50 },
    });
  });

  it.each([
    ['DNS_SERVERS', 'https://1.1.1.1/dns-query'],
    ['DNS_SERVERS', ''.padEnd(3, ',')],
    ['DNS_PROTOCOL', 'udp'],
    ['DOMAIN_AUDIT_INTERVAL', '0s'],
    ['DOMAIN_AUDIT_INTERVAL', '6 hours'],
    ['DNS_TIMEOUT_MS', '10'],
  ])('refuses %s=%j naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigValidationError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('parses durations', () => {
    expect([parseDuration('250ms'), parseDuration('30s'), parseDuration('2h'), parseDuration('1d')]).toEqual([250, 30_000, 7_200_000, 86_400_000]);
    expect(() => parseDuration('soon')).toThrow();
  });
});
