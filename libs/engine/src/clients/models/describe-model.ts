import { EMAIL_CLIENTS, getClient } from '../email-clients';
import type { ClientId } from '../email-client';
import type { BehaviorKind, Evidence } from './client-behavior';
import { CLIENT_MODELS } from './client-models';
import type { ClientInventorySummary } from '../inventory/inventory';
import { clientInventorySummary } from '../inventory/inventory';

/** A client's model as the API and the CLI show it: plain data, no functions. */
export interface ClientModelDescription {
  client: ClientId;
  name: string;
  engine: string;
  renderer: string;
  darkModel: string;
  modelCheckedAt: string;
  behaviors: Array<{ id: string; kind: BehaviorKind; summary: string; shown: boolean; evidence: readonly Evidence[] }>;
}

export function describeClientModel(client: ClientId): ClientModelDescription {
  const model = CLIENT_MODELS[client];
  const { name, darkMode, renderer } = getClient(client);
  return {
    client,
    name,
    engine: model.engine,
    renderer,
    darkModel: darkMode,
    modelCheckedAt: model.checkedAt,
    behaviors: model.behaviors.map((b) => ({ id: b.id, kind: b.kind, summary: b.summary, shown: !b.alternative, evidence: b.evidence })),
  };
}

/** One client as GET /api/clients, the MCP list_clients tool and `mailproof clients` list it. */
export interface ClientSummary {
  id: ClientId;
  name: string;
  category: string;
  /** The engine that paints the email: WebKit, Blink, Word or Gecko. */
  engine: string;
  /** What stands in front of the engine (a webmail's sanitizer, an app's web view). */
  renderer: string;
  darkMode: string;
  /** The dark model shown (the same value as `darkMode`, named as the model calls it). */
  darkModel: string;
  modelCheckedAt: string;
  /** How many documented behaviors the model holds. */
  behaviors: number;
  /** The behaviour inventory's counts over every source, and when each source was last read (docs/clients.md). */
  inventory: ClientInventorySummary;
}

export function clientSummaries(): ClientSummary[] {
  return EMAIL_CLIENTS.map(({ id, name, category, engine, renderer, darkMode, modelCheckedAt }) => ({
    id,
    name,
    category,
    engine,
    renderer,
    darkMode,
    darkModel: darkMode,
    modelCheckedAt,
    behaviors: CLIENT_MODELS[id].behaviors.length,
    inventory: clientInventorySummary(id),
  }));
}
