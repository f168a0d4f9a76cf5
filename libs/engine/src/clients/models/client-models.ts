import type { ClientId } from '../email-client';
import { APPLE_MODELS } from './apple.model';
import type { ClientModel } from './client-behavior';
import { DOCUMENTED_LIMITS } from './documented-limits.model';
import { GMAIL_MODELS } from './gmail.model';
import { FIFTH_PASS_BEHAVIORS } from './inventory-fifth-pass.model';
import { INVENTORY_GAP_BEHAVIORS } from './inventory-gaps.model';
import { REVIEW_SIXTH_BEHAVIORS } from './inventory-review-sixth.model';
import { SIXTH_PASS_BEHAVIORS } from './inventory-sixth-pass.model';
import { SIXTH_PASS_BUG_BEHAVIORS } from './inventory-sixth-pass-bugs.model';
import { OTHER_MODELS } from './other.model';
import { OUTLOOK_MODELS } from './outlook.model';
import { PROTON_MODEL } from './proton.model';
import { THUNDERBIRD_MODEL } from './thunderbird.model';
import { YAHOO_MODELS } from './yahoo.model';

/**
 * Every client's model: the documented behaviors Mailproof applies on top of caniemail's support data,
 * each with its sources and a fixture (docs/clients.md). caniemail says what a client supports; these
 * say what it does instead (drops a whole block, rewrites a value, prefixes a name, adds a link).
 */
const FAMILY_MODELS: Readonly<Record<ClientId, ClientModel>> = {
  ...GMAIL_MODELS,
  ...OUTLOOK_MODELS,
  ...APPLE_MODELS,
  ...YAHOO_MODELS,
  ...OTHER_MODELS,
  thunderbird: THUNDERBIRD_MODEL,
  protonmail: PROTON_MODEL,
};

/**
 * Each family model with the behaviours the inventory added from caniemail's notes (documented-limits.model.ts,
 * then inventory-gaps.model.ts, inventory-fifth-pass.model.ts, inventory-sixth-pass.model.ts, inventory-sixth-pass-bugs.model.ts and
 * inventory-review-sixth.model.ts) after its own: the family's rules come first where both touch a declaration.
 */
export const CLIENT_MODELS: Readonly<Record<ClientId, ClientModel>> = Object.fromEntries(
  Object.entries(FAMILY_MODELS).map(([client, model]): [string, ClientModel] => [
    client,
    {
      ...model,
      behaviors: [
        ...model.behaviors,
        ...(DOCUMENTED_LIMITS[client as ClientId] ?? []),
        ...(INVENTORY_GAP_BEHAVIORS[client as ClientId] ?? []),
        ...(FIFTH_PASS_BEHAVIORS[client as ClientId] ?? []),
        ...(SIXTH_PASS_BEHAVIORS[client as ClientId] ?? []),
        ...(SIXTH_PASS_BUG_BEHAVIORS[client as ClientId] ?? []),
        ...(REVIEW_SIXTH_BEHAVIORS[client as ClientId] ?? []),
      ],
    },
  ]),
) as Record<ClientId, ClientModel>;
