import { EMAIL_CLIENTS } from '@mailproof/engine';

/** The client list as GET /api/clients and list_clients give it. */
export function clientSummaries() {
  return EMAIL_CLIENTS.map(({ id, name, category, engine, darkMode }) => ({ id, name, category, engine, darkMode }));
}

export const CLIENTS_RESOURCE = {
  uri: 'mailproof://clients',
  name: 'clients',
  title: 'Email clients',
  description: 'The 21 email clients Mailproof analyzes (id, name, category, engine, dark-mode behaviour), as JSON.',
  mimeType: 'application/json',
} as const;
