import { EMAIL_CLIENTS, getClient } from '../email-clients';
import type { ClientId } from '../email-client';
import type { BehaviourKind, Evidence } from './client-behaviour';
import { CLIENT_MODELS } from './client-models';

/** A client's model as the API and the CLI show it: plain data, no functions. */
export interface ClientModelDescription {
  client: ClientId;
  name: string;
  renderingEngine: string;
  darkModel: string;
  modelCheckedAt: string;
  behaviours: Array<{ id: string; kind: BehaviourKind; summary: string; shown: boolean; evidence: readonly Evidence[] }>;
}

export function describeClientModel(client: ClientId): ClientModelDescription {
  const model = CLIENT_MODELS[client];
  const { name, darkMode } = getClient(client);
  return {
    client,
    name,
    renderingEngine: model.renderingEngine,
    darkModel: darkMode,
    modelCheckedAt: model.checkedAt,
    behaviours: model.behaviours.map((b) => ({ id: b.id, kind: b.kind, summary: b.summary, shown: !b.alternative, evidence: b.evidence })),
  };
}

/** One client as GET /api/clients, the MCP list_clients tool and `mailproof clients` list it. */
export interface ClientSummary {
  id: ClientId;
  name: string;
  category: string;
  engine: string;
  darkMode: string;
  renderingEngine: string;
  /** The dark model shown (the same value as `darkMode`, named as the model calls it). */
  darkModel: string;
  modelCheckedAt: string;
  /** How many documented behaviours the model holds. */
  behaviours: number;
}

export function clientSummaries(): ClientSummary[] {
  return EMAIL_CLIENTS.map(({ id, name, category, engine, darkMode, renderingEngine, modelCheckedAt }) => ({
    id,
    name,
    category,
    engine,
    darkMode,
    renderingEngine,
    darkModel: darkMode,
    modelCheckedAt,
    behaviours: CLIENT_MODELS[id].behaviours.length,
  }));
}
