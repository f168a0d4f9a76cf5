import { ClientId } from '../clients/email-client';
import { CodeFix } from '../fixes/code-fix';
import type { Severity } from '../clients/severity';

export { SEVERITY_ORDER, type Severity } from '../clients/severity';

/** One element of `cssReport`: severity, client, property, message and suggestion, a fix where one exists, and a source position where it can be known. */
export interface CssFinding {
  severity: Severity;
  client: ClientId;
  /** The CSS property, value, at-rule, selector or element concerned: `border-radius`, `display:flex`, `<svg>`. */
  property: string;
  message: string;
  suggestion: string;
  fix?: CodeFix;
  /**
   * Position of the first use in the submitted markup (1-based), when known. For jsx, mjml and maizzle
   * input: in the author's source, where the compiled element came from a source element.
   */
  line?: number;
  column?: number;
  /** jsx, mjml and maizzle input: the first use's position in `compiledHtml` (1-based). */
  compiledLine?: number;
  compiledColumn?: number;
  /** Stable rule id: the caniemail slug, or `unknown-property`. */
  rule: string;
  /** How many times the email uses it. */
  occurrences: number;
}
