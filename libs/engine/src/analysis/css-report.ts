import { CLIENT_IDS, ClientId } from '../clients/email-client';
import { EMAIL_CLIENTS } from '../clients/email-clients';
import { worstSupportByClient } from '../clients/tracked-properties';
import { EmailFormat } from '../fixes/code-fix';
import { fixFor, suggestionFor } from '../fixes/fix-catalog';
import { ParsedEmail } from '../parse/parse-email';
import { FeatureHit } from './collect-features';
import { CssFinding, SEVERITY_ORDER, Severity } from './css-finding';
import { StyleCascade } from './style-cascade';
import { WordEngineFallbacks, type FeatureUses } from './word-engine-fallbacks';
import type { BehaviorOutcome } from './client-behaviors';

const WORD_ENGINE: ClientId = 'outlook-windows-legacy';
const GMAIL_CLIENTS: ReadonlySet<ClientId> = new Set(['gmail-web', 'gmail-android', 'gmail-ios']);
/** Elements whose removal takes content with it: unsupported, they are errors, not warnings. */
const ERROR_ELEMENTS = new Set(['html-svg', 'html-form', 'html-link', 'html-script', 'html-iframe']);
const LAYOUT_DISPLAY = new Set(['css-display-flex', 'css-display-grid']);
/**
 * Features a client can ignore without changing what the reader sees (hints, metadata, comments).
 * Unsupported, they are info: flagging them as warnings would push senders to remove good practice.
 */
const HARMLESS_WHEN_IGNORED = new Set([
  'html-meta-color-scheme',
  'html-doctype',
  'html-comments',
  'css-comments',
  'css-color-scheme',
  'html-role',
  'html-lang',
  'html-aria-describedby',
  'html-aria-hidden',
  'html-aria-label',
  'html-aria-labelledby',
  'html-aria-live',
  'html-loading-attribute',
]);

export interface CssReportContext {
  parsed: ParsedEmail;
  hits: readonly FeatureHit[];
  cascade: StyleCascade;
  format: EmailFormat;
  clients: readonly ClientId[];
  /** Which elements use which feature: Outlook fallbacks cover only the findings of the elements they wrap. */
  uses: FeatureUses;
  /** What each client's documented behaviors do to the email (clients/models/): their findings join the report. */
  behaviors?: (client: ClientId) => BehaviorOutcome;
}

/** sentence()'s answers by notes list: the lists are catalog data (worstSupport's), asked again for every email and client. */
const SENTENCES = new WeakMap<readonly string[], string>();

function sentence(notes: readonly string[]): string {
  let text = SENTENCES.get(notes);
  if (text === undefined) {
    text = notes.map((note) => note.trim().replace(/([^.!?])$/, '$1.')).join(' ');
    SENTENCES.set(notes, text);
  }
  return text;
}

/**
 * cssReport: one finding per client and per thing used, sorted by client (CLIENT_IDS order),
 * severity, position and property. Severities: error for content the client removes or a layout it
 * breaks (a `<style>` the email depends on, svg, form, script, iframe, flex or grid layout in the
 * Word engine), warning for an unsupported property, value, at-rule, selector or function, info for
 * partial support or a fallback that covers the finding.
 */
export function buildCssReport(context: CssReportContext): CssFinding[] {
  const { parsed, hits, cascade, format } = context;
  const findings: CssFinding[] = [];
  const relying = cascade.elementsRelyingOnStyle.length;
  const wanted = new Set(context.clients);
  let fallbacks: WordEngineFallbacks | undefined;
  // Each hit's support in every client, read once per hit (catalog data, kept per feature list).
  const supports = hits.map((hit) => (hit.unknownProperty ? undefined : worstSupportByClient(hit.featureIds)));
  for (const client of EMAIL_CLIENTS) {
    if (!wanted.has(client.id)) continue;
    const clientIndex = CLIENT_IDS.indexOf(client.id);
    const before = findings.length;
    const outcome = context.behaviors?.(client.id);
    const governed = outcome && outcome.elementGoverned.size > 0 ? outcome.elementGoverned : undefined;
    for (let h = 0; h < hits.length; h++) {
      const hit = hits[h];
      const support = supports[h]?.[clientIndex];
      // Supported or unknown: no finding (the common case, decided before anything else is read).
      if (support && (support.level === 'supported' || support.level === 'unknown')) continue;
      // A property the client's element rules govern is reported per element by those rules (below).
      if (governed?.has(hit.label)) continue;
      let severity: Severity | undefined;
      let message: string;
      let rule = hit.featureIds[0] ?? 'unknown-property';
      if (hit.unknownProperty) {
        if (!GMAIL_CLIENTS.has(client.id)) continue;
        severity = 'info';
        rule = 'unknown-property';
        message = `caniemail has no data for ${hit.label}; ${client.name} strips CSS properties it does not recognize, so support is unknown.`;
      } else {
        if (!support) continue; // (a known property always has one)
        const notes = support.notes.length > 0 ? ` ${sentence(support.notes)}` : '';
        if (support.level === 'unsupported') {
          const isStyle = rule === 'html-style';
          if (ERROR_ELEMENTS.has(rule) || (isStyle && relying > 0) || (LAYOUT_DISPLAY.has(rule) && client.id === WORD_ENGINE)) severity = 'error';
          else severity = HARMLESS_WHEN_IGNORED.has(rule) ? 'info' : 'warning';
          message = `${hit.label} is not supported in ${client.name}.${notes}`;
          if (severity === 'info') message += ' Ignoring it does not change what the reader sees.';
          if (isStyle && relying > 0) message += ` ${relying} element(s) rely on class or id rules that have no inline fallback.`;
        } else {
          const isStyle = rule === 'html-style';
          severity = isStyle && relying > 0 ? 'warning' : 'info';
          message = `${hit.label} is only partly supported in ${client.name}.${notes || ' Results vary with the account type or version.'}`;
          if (isStyle && relying > 0) message += ` ${relying} element(s) rely on class or id rules that have no inline fallback.`;
        }
        if (client.id === WORD_ENGINE && severity !== 'info') {
          fallbacks ??= new WordEngineFallbacks(parsed, context.uses);
          const fallback = fallbacks.coverage(hit.label);
          if (fallback) {
            severity = 'info';
            message += ` The email has ${fallback} that ${client.name} uses instead.`;
          }
        }
      }
      const finding: CssFinding = {
        severity,
        client: client.id,
        property: hit.label,
        message,
        suggestion: suggestionFor(hit.label, client.name),
        rule,
        occurrences: hit.occurrences,
      };
      const fix = severity === 'info' ? undefined : fixFor(hit.label, format, client.id);
      if (fix) finding.fix = fix;
      if (hit.line > 0) {
        finding.line = hit.line;
        finding.column = hit.column;
      }
      findings.push(finding);
    }
    for (const finding of skippedRuleFindings(parsed, client.id)) findings.push(finding);
    for (const fired of outcome?.findings ?? []) findings.push(behaviorFinding(fired, client.id));
    // Clients come in CLIENT_IDS order already; sort within this client.
    const own = findings.splice(before).sort(compareFindings);
    for (const finding of own) findings.push(finding);
  }
  return findings;
}

/** A documented client behavior that fired, as a finding: its rule id is the behavior's id. */
function behaviorFinding(fired: BehaviorOutcome['findings'][number], client: ClientId): CssFinding {
  const finding: CssFinding = {
    severity: fired.severity,
    client,
    property: fired.property,
    message: fired.message,
    suggestion: fired.suggestion || 'No change needed: this is how the client shows it.',
    rule: fired.behavior.id,
    occurrences: fired.occurrences,
  };
  if (fired.line > 0) {
    finding.line = fired.line;
    finding.column = fired.column;
  }
  return finding;
}

/**
 * Rules the parse skipped because their selector crosses a bound of limits.ts: one info finding per
 * bound (first position, occurrences), naming the bound and its value. The same for every client.
 */
function skippedRuleFindings(parsed: ParsedEmail, client: ClientId): CssFinding[] {
  const byLimit = new Map<string, CssFinding>();
  for (const skipped of parsed.skippedRules) {
    const finding = byLimit.get(skipped.limit);
    if (finding) {
      finding.occurrences++;
      continue;
    }
    const unit = skipped.limit === 'selector length' ? ' characters' : skipped.limit === 'selector list size' ? ' selectors' : ' levels';
    const first: CssFinding = {
      severity: 'info',
      client,
      property: skipped.limit,
      message: `A <style> rule was skipped by the analysis: its selector is over the engine's ${skipped.limit} limit of ${skipped.value}${unit} (it has ${skipped.actual}).`,
      suggestion: 'Real email selectors stay far below this limit: simplify or split the selector.',
      rule: 'engine-limit',
      occurrences: 1,
    };
    if (skipped.line > 0) {
      first.line = skipped.line;
      first.column = skipped.column;
    }
    byLimit.set(skipped.limit, first);
  }
  return [...byLimit.values()];
}

function compareFindings(a: CssFinding, b: CssFinding): number {
  return (
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    (a.property < b.property ? -1 : a.property > b.property ? 1 : 0)
  );
}
