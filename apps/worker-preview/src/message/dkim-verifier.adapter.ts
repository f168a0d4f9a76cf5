import { dkimVerify } from 'mailauth/lib/dkim/verify';
import type { DkimVerification, MessageAuthenticationInput } from '@mailproof/engine';

/** DKIM key records by `<selector>._domainkey.<domain>` (lower case): [] when the name has none, null when its lookup failed. */
export type DkimKeyRecords = ReadonlyMap<string, string[] | null>;

interface MailauthResult {
  signingDomain?: string;
  selector?: string;
  status: { result: string; comment?: string };
}

/**
 * Verifies each DKIM-Signature of a raw message with mailauth's `dkimVerify`, whose resolver answers only
 * from `keys`: the records the DNS audits read (the existing audit path: DoH, its cache, its deadlines), so
 * the check opens no DNS connection of its own. A key not looked up answers as a failed lookup (temperror).
 */
export async function verifyDkimSignatures(raw: string, keys: DkimKeyRecords): Promise<MessageAuthenticationInput['dkim']> {
  const resolver = async (name: string, rrtype: string): Promise<string[][]> => {
    const records = rrtype.toUpperCase() === 'TXT' ? keys.get(name.toLowerCase().replace(/\.$/, '')) : undefined;
    if (records === undefined || records === null) throw Object.assign(new Error(`${rrtype} ${name}: no answer`), { code: 'ETIMEOUT' });
    if (records.length === 0) throw Object.assign(new Error(`${rrtype} ${name}: no record`), { code: 'ENOTFOUND' });
    return records.map((record) => [record]);
  };
  const verified = (await dkimVerify(raw, { resolver })) as { results: MailauthResult[] };
  return verified.results
    .filter((result) => result.status.result !== 'none')
    .map((result) => {
      const comment = result.status.comment ?? '';
      return {
        domain: (result.signingDomain ?? '').toLowerCase(),
        selector: (result.selector ?? '').toLowerCase(),
        result: verificationOf(result.status.result, comment),
        message: comment || result.status.result,
      };
    });
}

/**
 * mailauth reports a body that changed after signing as `neutral` ("body hash did not verify", as RFC 6376
 * 6.3 lets a verifier); the report calls that what it is for the sender, a signature that fails.
 */
function verificationOf(result: string, comment: string): DkimVerification {
  if (result === 'neutral' && /body hash did not verify/i.test(comment)) return 'fail';
  if (result === 'pass' || result === 'fail' || result === 'neutral' || result === 'temperror' || result === 'permerror') return result;
  return 'permerror';
}
