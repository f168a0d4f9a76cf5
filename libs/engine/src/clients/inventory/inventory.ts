import { CANIEMAIL } from '../caniemail-data';
import type { ClientId } from '../email-client';
import { CLIENT_IDS } from '../email-client';
import { CLIENT_MODELS } from '../models/client-models';
import { CANIEMAIL_DECISIONS } from './caniemail-decisions';
import { caniemailNoteRows } from './caniemail-rows';
import { EMAIL_BUGS_ISSUES } from './email-bugs';
import type { InventoryCounts, InventoryDecision, InventoryRow, InventorySource } from './inventory-types';
import { SUPPORT_LAYER } from './inventory-types';
import { VENDOR_FACTS } from './vendor-facts';

/**
 * The behaviour inventory (docs/clients.md, "Behaviour inventory"): every documented behaviour of our clients
 * from caniemail's notes (generated from the package), the email-bugs issues and the vendors' pages and code
 * (hand-kept), each row with one decision. Built once, on first use.
 */

/** When each source was last read for the inventory (ISO dates): GET /api/clients shows them. */
export const SOURCES_READ_AT: Readonly<Record<InventorySource, string>> = {
  caniemail: '2026-12-07',
  emailBugs: '2026-12-07',
  vendor: '2026-12-07',
};

export const INVENTORY_SOURCES: readonly InventorySource[] = ['caniemail', 'emailBugs', 'vendor'];

export interface Inventory {
  rows: readonly InventoryRow[];
  /** What is wrong with the inventory: rows without a decision, decisions for no row, unknown behaviours. Empty when sound. */
  problems: readonly string[];
  /** The caniemail note rows with no decision (their keys): `npm run check:fidelity` fails on any. */
  undecided: readonly string[];
}

function buildCaniemailRows(decisions: Readonly<Record<string, InventoryDecision>>, problems: string[], undecided: string[]): InventoryRow[] {
  const rows: InventoryRow[] = [];
  const used = new Set<string>();
  for (const note of caniemailNoteRows()) {
    const decision = decisions[note.key] ?? decisions[note.noteKey];
    if (!decision) {
      undecided.push(note.key);
      continue;
    }
    used.add(decisions[note.key] ? note.key : note.noteKey);
    if (decision.state === 'modeled' && decision.behavior === SUPPORT_LAYER && !['a', 'n'].includes(note.flag))
      problems.push(`caniemail:${note.key}: the support layer models only partial or unsupported flags (flag ${note.flag})`);
    rows.push({
      id: `caniemail:${note.key}`,
      source: 'caniemail',
      client: note.client,
      subject: `${note.featureTitle}, note ${note.note}`,
      url: `https://www.caniemail.com/features/${note.slug}/`,
      sourceDate: note.lastTestDate,
      decision,
    });
  }
  for (const key of Object.keys(decisions)) if (!used.has(key)) problems.push(`caniemail decision ${key} decides no row`);
  return rows;
}

function buildEmailBugsRows(): InventoryRow[] {
  return EMAIL_BUGS_ISSUES.flatMap((issue) =>
    issue.clients.map((client) => ({
      id: `email-bugs:#${issue.issue}@${client}`,
      source: 'emailBugs' as const,
      client,
      subject: `#${issue.issue} (${issue.state}): ${issue.title}`,
      url: `https://github.com/hteumeuleu/email-bugs/issues/${issue.issue}`,
      sourceDate: issue.date,
      decision: issue.byClient?.[client] ?? issue.decision,
    })),
  );
}

function buildVendorRows(): InventoryRow[] {
  return VENDOR_FACTS.flatMap((fact) =>
    fact.clients.map((client) => ({
      id: `vendor:${fact.id}@${client}`,
      source: 'vendor' as const,
      client,
      subject: fact.subject,
      url: fact.url,
      sourceDate: fact.date,
      decision: fact.decision,
    })),
  );
}

/** A modeled row must name a behaviour of its client's model (or the support layer). */
function checkBehaviors(rows: readonly InventoryRow[], problems: string[]): void {
  for (const row of rows) {
    if (row.decision.state !== 'modeled' || row.decision.behavior === SUPPORT_LAYER) continue;
    const { behavior } = row.decision;
    if (!CLIENT_MODELS[row.client].behaviors.some((b) => b.id === behavior)) problems.push(`${row.id}: ${row.client}'s model has no behaviour ${behavior}`);
  }
  const ids = new Set<string>();
  for (const row of rows) {
    if (ids.has(row.id)) problems.push(`${row.id}: listed twice`);
    ids.add(row.id);
  }
}

/** The inventory with these caniemail decisions (the checked-in ones by default; tests pass others). */
export function buildInventory(decisions: Readonly<Record<string, InventoryDecision>> = CANIEMAIL_DECISIONS): Inventory {
  const problems: string[] = [];
  const undecided: string[] = [];
  const rows = [...buildCaniemailRows(decisions, problems, undecided), ...buildEmailBugsRows(), ...buildVendorRows()];
  checkBehaviors(rows, problems);
  return { rows, problems, undecided };
}

let built: Inventory | undefined;

export function behaviourInventory(): Inventory {
  built ??= buildInventory();
  return built;
}

function count(rows: readonly InventoryRow[]): InventoryCounts {
  const counts: InventoryCounts = { modeled: 0, notModeled: 0, notApplicable: 0 };
  for (const { decision } of rows) {
    if (decision.state === 'modeled') counts.modeled++;
    else if (decision.state === 'not-modeled') counts.notModeled++;
    else counts.notApplicable++;
  }
  return counts;
}

/** Counts per source for one client. */
export function inventoryCountsBySource(client: ClientId): Record<InventorySource, InventoryCounts> {
  const rows = behaviourInventory().rows.filter((row) => row.client === client);
  return {
    caniemail: count(rows.filter((r) => r.source === 'caniemail')),
    emailBugs: count(rows.filter((r) => r.source === 'emailBugs')),
    vendor: count(rows.filter((r) => r.source === 'vendor')),
  };
}

/** One client's inventory as GET /api/clients shows it: the counts over every source and when each was read. */
export interface ClientInventorySummary extends InventoryCounts {
  sourcesReadAt: Readonly<Record<InventorySource, string>>;
}

export function clientInventorySummary(client: ClientId): ClientInventorySummary {
  return { ...count(behaviourInventory().rows.filter((row) => row.client === client)), sourcesReadAt: SOURCES_READ_AT };
}

/**
 * The coverage figure of the issue: among caniemail rows that describe a markup or CSS behaviour of the view
 * Mailproof models, the share a model behaviour expresses. Counted: rows modeled by a behaviour (not by the
 * support layer, which only restates the flag) and rows not modeled as a gap or disputed. Left out: rows the
 * support layer covers, rows that depend on a user setting, do not show in markup, are superseded, or do not apply.
 */
export function noteCoverage(): { modeled: number; behaviourRows: number; percent: number } {
  const rows = behaviourInventory().rows.filter((r) => r.source === 'caniemail');
  const modeled = rows.filter((r) => r.decision.state === 'modeled' && r.decision.behavior !== SUPPORT_LAYER).length;
  const open = rows.filter((r) => r.decision.state === 'not-modeled' && (r.decision.reason === 'gap' || r.decision.reason === 'disputed')).length;
  const behaviourRows = modeled + open;
  return { modeled, behaviourRows, percent: behaviourRows === 0 ? 100 : Math.round((modeled / behaviourRows) * 1000) / 10 };
}

function decisionText(decision: InventoryDecision): string {
  if (decision.state === 'modeled')
    return decision.behavior === SUPPORT_LAYER ? 'modeled: caniemail support layer (probe spec)' : `modeled: \`${decision.behavior}\``;
  if (decision.state === 'not-modeled') return `not modeled (${decision.reason}, ${decision.date}): ${decision.why}`;
  return `not applicable: ${decision.why}`;
}

const SOURCE_TITLES: Record<InventorySource, string> = {
  caniemail: 'caniemail notes',
  emailBugs: 'hteumeuleu/email-bugs issues',
  vendor: "vendors' pages and open-source code",
};

/** The checked-in inventory of one client (docs/inventory/<client>.md), generated. */
export function inventoryMarkdown(client: ClientId, clientName: string): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');
  const rows = behaviourInventory().rows.filter((row) => row.client === client);
  const lines = [
    `# Behaviour inventory: ${clientName} (\`${client}\`)`,
    '',
    'Generated by `npm run check:fidelity -- --write-inventory` (docs/clients.md, "Behaviour inventory"); do not edit by hand.',
    `caniemail ${CANIEMAIL.api_version} (data of ${CANIEMAIL.last_update_date.slice(0, 10)}).`,
    '',
  ];
  const bySource = inventoryCountsBySource(client);
  lines.push('| source | read | modeled | not modeled | not applicable |', '|---|---|---|---|---|');
  for (const source of INVENTORY_SOURCES) {
    const c = bySource[source];
    lines.push(`| ${SOURCE_TITLES[source]} | ${SOURCES_READ_AT[source]} | ${c.modeled} | ${c.notModeled} | ${c.notApplicable} |`);
  }
  for (const source of INVENTORY_SOURCES) {
    const own = rows.filter((r) => r.source === source);
    lines.push('', `## ${SOURCE_TITLES[source]}`, '');
    if (own.length === 0) {
      lines.push('No row concerns this client.');
      continue;
    }
    lines.push('| row | about | source date | decision |', '|---|---|---|---|');
    for (const row of own)
      lines.push(`| [\`${row.id}\`](${row.url}) | ${cell(row.subject)} | ${row.sourceDate || '—'} | ${cell(decisionText(row.decision))} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every client's counts, for the summary file (docs/inventory/README.md). */
export function inventorySummaryMarkdown(names: Readonly<Record<ClientId, string>>): string {
  const { modeled, behaviourRows, percent } = noteCoverage();
  const lines = [
    '# Behaviour inventory',
    '',
    'Generated by `npm run check:fidelity -- --write-inventory`; the rules are in docs/clients.md ("Behaviour inventory").',
    '',
    `caniemail notes that describe a markup or CSS behaviour of the modeled view: **${modeled} of ${behaviourRows} modeled by a behaviour (${percent}%)**.`,
    '',
    '| client | caniemail (modeled / not / n.a.) | email-bugs | vendor |',
    '|---|---|---|---|',
  ];
  for (const client of CLIENT_IDS) {
    const c = inventoryCountsBySource(client);
    const f = (x: InventoryCounts) => `${x.modeled} / ${x.notModeled} / ${x.notApplicable}`;
    lines.push(`| [${names[client]}](${client}.md) | ${f(c.caniemail)} | ${f(c.emailBugs)} | ${f(c.vendor)} |`);
  }
  return `${lines.join('\n')}\n`;
}
