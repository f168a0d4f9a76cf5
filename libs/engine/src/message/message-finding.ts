import type { MessageFinding } from './message-report';

/** One finding as a list, so a rule returns `findings(...)` or `[]` and the report is `rules.flatMap(...)`. */
export function messageFinding(rule: string, severity: MessageFinding['severity'], message: string, fix: string | null): MessageFinding[] {
  return [{ rule, severity, message, fix }];
}
