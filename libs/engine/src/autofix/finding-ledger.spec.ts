import { parseEmail } from '../parse/parse-email';
import { FindingLedger, LedgerFinding, buildFindingLedger } from './finding-ledger';

const base = buildFindingLedger(parseEmail('<html><body><p>Hi</p></body></html>'), 'html', ['gmail-web']);

function ledger(findings: LedgerFinding[]): FindingLedger {
  return new FindingLedger(base.parsed, findings, 100, base.report);
}

const finding = (severity: LedgerFinding['severity'], rule = 'css-rgba'): LedgerFinding => ({
  report: 'css',
  rule,
  severity,
  message: rule,
  client: 'outlook-windows',
  property: 'rgba()',
});

describe('FindingLedger.introducedSince', () => {
  it('counts a new warning or error, never a new info finding', () => {
    expect(ledger([finding('warning')]).introducedSince(ledger([]))).toEqual([expect.objectContaining({ rule: 'css-rgba', severity: 'warning' })]);
    expect(ledger([finding('info')]).introducedSince(ledger([]))).toEqual([]);
  });

  it('does not count an error that became a warning, and counts a warning that became an error', () => {
    expect(ledger([finding('warning')]).introducedSince(ledger([finding('error')]))).toEqual([]);
    expect(ledger([finding('error')]).introducedSince(ledger([finding('warning')]))).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  it('counts one more of a finding the email already had, and nothing for a finding that went away', () => {
    expect(ledger([finding('error'), finding('error')]).introducedSince(ledger([finding('error')]))).toHaveLength(1);
    expect(ledger([]).introducedSince(ledger([finding('error'), finding('warning', 'css-calc')]))).toEqual([]);
  });
});

describe('buildFindingLedger', () => {
  it("holds the size report: an email over Gmail's clip has its finding", () => {
    const big = `<html><body><p>${'x'.repeat(110 * 1024)}</p></body></html>`;
    const findings = buildFindingLedger(parseEmail(big), 'html', ['gmail-web']).findings;
    expect(findings.some((f) => f.report === 'size' && f.rule === 'gmail-clipped')).toBe(true);
    expect(base.findings.some((f) => f.report === 'size' && f.rule === 'gmail-clipped')).toBe(false);
  });
});
