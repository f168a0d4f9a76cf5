/** How much a finding matters; client models name it, so it lives under clients (css-finding.ts re-exports it). */
export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
