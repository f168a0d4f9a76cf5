import type { MessageFacts } from './message-facts';
import type { DkimSignatureCheck } from './message-report';

/**
 * Whether the one-click headers are signed as RFC 8058 3.1 requires: by a DKIM signature that verifies and whose
 * `h=` covers both List-Unsubscribe and List-Unsubscribe-Post.
 * - `signed`: such a signature verified (pass);
 * - `unsigned-message`: the message carries no DKIM-Signature yet (ESPs sign at sending);
 * - `not-covered`: no signature's h= covers both headers;
 * - `not-verified`: a covering signature exists and every one of them fails (or has no published key);
 * - `inconclusive`: a covering signature could not be verified (no lookups made, a key lookup failed, not checked).
 */
export type OneClickSigning = 'signed' | 'unsigned-message' | 'not-covered' | 'not-verified' | 'inconclusive';

const ONE_CLICK_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post'];

/** `dkim`: the verifications (authentication report); null when none were made. */
export function oneClickSigning(facts: MessageFacts, dkim: readonly DkimSignatureCheck[] | null): OneClickSigning {
  if (facts.dkimSignatures.length === 0) return 'unsigned-message';
  const covering = facts.dkimSignatures.filter((signature) => ONE_CLICK_HEADERS.every((name) => signature.signedHeaders.includes(name)));
  if (covering.length === 0) return 'not-covered';
  if (dkim === null) return 'inconclusive';
  const results = covering.map((signature) => dkim.find((check) => check.domain === signature.domain && check.selector === signature.selector) ?? null);
  if (results.some((check) => check?.result === 'pass')) return 'signed';
  const decided = results.every((check) => check !== null && (check.result === 'fail' || check.result === 'permerror' || isNoKey(check)));
  return decided ? 'not-verified' : 'inconclusive';
}

/** neutral from the verifier means no key is published; the plan's "not checked" neutral decides nothing. */
function isNoKey(check: DkimSignatureCheck): boolean {
  return check.result === 'neutral' && !check.message.startsWith('not checked');
}
