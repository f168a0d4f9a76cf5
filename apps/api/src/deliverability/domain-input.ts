import { isValidDkimSelector, normalizeDomain } from '@mailproof/engine/dns';
import { ProblemException } from '../problems/problem.exception';

/** The normalized domain, or a 400 that says why (IP literal, single label, too long...). */
export function domainOrBadRequest(raw: string): string {
  const normalized = normalizeDomain(raw);
  if (!normalized.ok) {
    throw new ProblemException('validation_failed', normalized.message, {
      errors: [{ field: 'domain', message: normalized.message }],
      reason: normalized.reason,
    });
  }
  return normalized.domain;
}

/** Lowercased, de-duplicated selectors in the order given, or a 400 naming the bad one. */
export function selectorsOrBadRequest(raw: string[] | undefined): string[] {
  const selectors = [...new Set((raw ?? []).map((selector) => selector.trim().toLowerCase()))];
  const bad = selectors.findIndex((selector) => !isValidDkimSelector(selector));
  if (bad >= 0) {
    const message = `"${selectors[bad]}" is not a DKIM selector (letters, digits, "-", "_" and dots).`;
    throw new ProblemException('validation_failed', message, { errors: [{ field: `dkimSelectors.${bad}`, message }] });
  }
  return selectors;
}
