import type { StoredGateVerdict } from '@mailproof/contracts';
import { JOB_CHAIN_LIFETIME_MS, verdictWithoutUrls, webhookDeliveryLifetimeMs } from './retention.repository';

describe('retention helpers', () => {
  it("empties the email's URLs in a verdict and keeps what was judged", () => {
    const url = 'https://shop.example/receipt/jane';
    const verdict: StoredGateVerdict = {
      passed: false,
      overallScore: 70,
      worstClient: 'gmail-web',
      checks: ['compatibility', 'content'],
      baseline: { ref: 'r', comparedTo: null },
      failures: [
        { family: 'compatibility', check: 'threshold', clientId: 'gmail-web', score: 70, threshold: 80 },
        { family: 'content', check: 'links', href: url, reason: 'placeholder' },
        { family: 'content', check: 'alt-text', src: `${url}.png` },
        { family: 'content', check: 'link-unreachable', url, status: 404 },
      ],
      links: { resolved: true, checked: 1, unchecked: [{ url, reason: 'cap' }] },
    };
    const stripped = verdictWithoutUrls(verdict);
    expect(JSON.stringify(stripped)).not.toContain('shop.example');
    expect(stripped.failures).toEqual([
      verdict.failures[0],
      { family: 'content', check: 'links', href: '', reason: 'placeholder' },
      { family: 'content', check: 'alt-text', src: '' },
      { family: 'content', check: 'link-unreachable', url: '', status: 404 },
    ]);
    expect(stripped.links).toEqual({ resolved: true, checked: 1, unchecked: [{ url: '', reason: 'cap' }] });
    expect(stripped).toMatchObject({ passed: false, overallScore: 70, checks: ['compatibility', 'content'] });
  });

  it("waits for a webhook delivery as long as its retry schedule, and never less than a job chain's lifetime", () => {
    // 14 attempts from 10 s: 10 s × (2^13 − 1) of backoff, 14 timeouts of 10 s, an hour's margin.
    expect(webhookDeliveryLifetimeMs({ attempts: 14, backoffMs: 10_000, timeoutMs: 10_000 })).toBe(JOB_CHAIN_LIFETIME_MS);
    expect(webhookDeliveryLifetimeMs({ attempts: 16, backoffMs: 10_000, timeoutMs: 10_000 })).toBe(10_000 * (2 ** 15 - 1) + 16 * 10_000 + 3_600_000);
    expect(webhookDeliveryLifetimeMs({ attempts: 1, backoffMs: 3_600_000, timeoutMs: 500 })).toBe(JOB_CHAIN_LIFETIME_MS);
  });
});
