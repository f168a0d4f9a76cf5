import type { CompileWarning } from '@mailproof/engine/compile';
import type { FindingGroup } from './email-analysis';
import type { EmailInput } from './email-input';

/** Human text shared by `analyze` and `lint`; `--json` bypasses all of it. */

const SHOWN_CLIENTS = 3;

export function describeClients(clients: readonly string[], analyzedCount: number): string {
  if (clients.length === analyzedCount && analyzedCount > 2) return `all ${analyzedCount} clients`;
  const shown = clients.slice(0, SHOWN_CLIENTS).join(', ');
  const rest = clients.length - SHOWN_CLIENTS;
  return rest > 0 ? `${shown} +${rest} more` : shown;
}

export function describePosition(group: Pick<FindingGroup, 'line' | 'column'>): string {
  if (group.line === undefined) return '-';
  return group.column === undefined ? String(group.line) : `${group.line}:${group.column}`;
}

export function describeInput(input: Pick<EmailInput, 'label' | 'format' | 'detectedBy'>): string {
  const how = { option: 'from --format', extension: 'from the file name', content: 'from the content' }[input.detectedBy];
  return `${input.label} (${input.format}, ${how})`;
}

/** Finding positions point into the compiled HTML, which only matches the source for html; a message's point into its decoded HTML part. */
export function positionNote(input: Pick<EmailInput, 'format'>): string {
  if (input.format === 'html') return '';
  if (input.format === 'eml') return ' (lines refer to the decoded HTML part of the message)';
  return ' (lines refer to the source; --json also gives compiledLine/compiledColumn)';
}

/** Aligned rows: position, severity, property, rule, clients; the suggestion on the next line. */
export function formatFindingGroups(groups: readonly FindingGroup[], analyzedCount: number, indent: string): string[] {
  const positions = groups.map(describePosition);
  const positionWidth = Math.max(0, ...positions.map((p) => p.length));
  const propertyWidth = Math.min(32, Math.max(0, ...groups.map((g) => g.property.length)));
  const ruleWidth = Math.min(36, Math.max(0, ...groups.map((g) => g.rule.length)));
  const lines: string[] = [];
  groups.forEach((group, index) => {
    const columns = [
      positions[index].padStart(positionWidth),
      group.severity.padEnd(7),
      group.property.padEnd(propertyWidth),
      group.rule.padEnd(ruleWidth),
      describeClients(group.clients, analyzedCount),
    ];
    lines.push(`${indent}${columns.join('  ')}`);
    lines.push(`${indent}${' '.repeat(positionWidth + 2)}${group.suggestion}`);
  });
  return lines;
}

export function formatCompileWarnings(warnings: readonly CompileWarning[], indent: string): string[] {
  return warnings.map((warning) => `${indent}${warning.line === undefined ? '' : `line ${warning.line}: `}${warning.message}`);
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
