/** The client list as GET /api/clients and list_clients give it (one summary, in the engine). */
export { clientSummaries } from '@mailproof/engine';

export const CLIENTS_RESOURCE = {
  uri: 'mailproof://clients',
  name: 'clients',
  title: 'Email clients',
  description: 'The 21 email clients Mailproof analyzes (id, name, category, engine, dark model, rendering engine, the date each model was checked), as JSON.',
  mimeType: 'application/json',
} as const;
