import { getClient } from '../email-clients';
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
