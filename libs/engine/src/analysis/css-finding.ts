import { ClientId } from '../clients/email-client';
import { CodeFix } from '../fixes/code-fix';

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** One element of `cssReport`: severity, client, property, message and suggestion, a fix where one exists, and a source position where it can be known. */
export interface CssFinding {
  severity: Severity;
  client: ClientId;
  /** The CSS property, value, at-rule, selector or element concerned: `border-radius`, `display:flex`, `<svg>`. */
  property: string;
  message: string;
  suggestion: string;
  fix?: CodeFix;
  /** Position of the first use in the submitted markup (1-based), when known. */
  line?: number;
  column?: number;
  /** Stable rule id: the caniemail slug, or `unknown-property`. */
  rule: string;
  /** How many times the email uses it. */
  occurrences: number;
}
