/**
 * Findings grouped across clients: the engine reports one finding per client, people (and assistants)
 * read one line per problem. Used by `mailproof analyze`/`lint` and the MCP tool analyze_email.
 */
import { getClient } from '../clients/email-clients';
import type { ClientId } from '../clients/email-client';
import type { CssFinding, Severity } from './css-finding';

/** One problem across clients: the engine reports a finding per client, people read one line per problem. */
export interface FindingGroup {
  severity: Severity;
  property: string;
  rule: string;
  line?: number;
  column?: number;
  clients: ClientId[];
  suggestion: string;
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Groups findings by severity, rule and property; sorted by severity, then position, then property. */
export function groupFindings(findings: readonly CssFinding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const finding of findings) {
    const key = `${finding.severity}\u0000${finding.rule}\u0000${finding.property}`;
    const group = groups.get(key);
    if (group) {
      group.clients.push(finding.client);
      if (finding.suggestion !== group.suggestion) group.suggestion = generalizeSuggestion(group);
      if (isEarlier(finding, group)) Object.assign(group, { line: finding.line, column: finding.column });
      continue;
    }
    groups.set(key, {
      severity: finding.severity,
      property: finding.property,
      rule: finding.rule,
      line: finding.line,
      column: finding.column,
      clients: [finding.client],
      suggestion: finding.suggestion,
    });
  }
  return [...groups.values()].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.property.localeCompare(b.property),
  );
}

/**
 * Some suggestions name their client ("…when Gmail ignores <body>…"); a line covering several clients
 * says "the client" instead.
 */
function generalizeSuggestion(group: FindingGroup): string {
  return group.suggestion.split(getClient(group.clients[0]).name).join('the client');
}

function isEarlier(finding: CssFinding, group: FindingGroup): boolean {
  if (finding.line === undefined) return false;
  if (group.line === undefined || finding.line < group.line) return true;
  return finding.line === group.line && (finding.column ?? 0) < (group.column ?? 0);
}

export function countBySeverity(groups: readonly FindingGroup[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const group of groups) counts[group.severity] += 1;
  return counts;
}
