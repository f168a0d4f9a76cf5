import { evaluateDmarc } from './dmarc';
import { StaticZoneResolver } from './static-zone-resolver';

/** The DMARC outcome of `example.test` publishing `record` at `_dmarc.example.test`. */
async function dmarc(record: string) {
  const outcome = await evaluateDmarc(
    'example.test',
    new StaticZoneResolver({ 'example.test': { A: ['192.0.2.1'] }, '_dmarc.example.test': { TXT: [record] } }),
  );
  return { ...outcome, rules: outcome.issues.map((issue) => `${issue.rule}/${issue.severity}`) };
}

describe('evaluateDmarc (RFC 7489)', () => {
  describe('a record without a valid p= or with an invalid sp= (6.3, 6.6.3)', () => {
    it.each([
      ['no p=', 'v=DMARC1; rua=mailto:r@example.test'],
      ['p= not a policy', 'v=DMARC1; p=maybe; rua=mailto:r@example.test'],
      ['p= empty', 'v=DMARC1; p=; rua=mailto:r@example.test'],
      ['sp= not a policy', 'v=DMARC1; p=reject; sp=never; rua=mailto:r@example.test'],
    ])('%s with a valid rua= is invalid, with the effective policy none', async (_what, record) => {
      const result = await dmarc(record);
      expect(result.summary).toEqual({ valid: false, policy: 'none', record, foundAt: '_dmarc.example.test' });
      expect(result.check.status).toBe('fail');
      expect(result.rules).toContain('dmarc_invalid_policy/error');
      expect(result.check.message).toMatch(/not valid.*p=none/);
      // The invalid record already says it acts as p=none: no second finding about p=none.
      expect(result.rules.filter((rule) => rule.startsWith('dmarc_policy_none'))).toEqual([]);
    });

    it.each([
      ['no p=', 'v=DMARC1; adkim=s'],
      ['p= not a policy', 'v=DMARC1; p=maybe'],
      ['a rua= that is not a mailto: address', 'v=DMARC1; p=maybe; rua=ftp://example.test'],
    ])('%s without a valid rua= is invalid and applies no policy', async (_what, record) => {
      const result = await dmarc(record);
      expect(result.summary).toEqual({ valid: false, policy: '', record, foundAt: '_dmarc.example.test' });
      expect(result.check.status).toBe('fail');
      expect(result.rules).toContain('dmarc_invalid_policy/error');
    });

    it('keeps a record with a valid p= valid, p=none included', async () => {
      const none = await dmarc('v=DMARC1; p=none; rua=mailto:r@example.test');
      expect(none.summary).toMatchObject({ valid: true, policy: 'none' });
      expect(none.check.status).toBe('warn');
      expect(none.rules).toEqual(['dmarc_policy_none/warning']);
      const reject = await dmarc('v=DMARC1; P=Reject; rua=mailto:r@example.test');
      expect(reject.summary).toMatchObject({ valid: true, policy: 'reject' });
      expect(reject.check.status).toBe('pass');
    });
  });
});
