import type { ClientId } from '../email-client';

/**
 * The behaviour inventory (docs/clients.md, "Behaviour inventory"): every documented behaviour of our
 * clients, one row per source and client, each with one decision.
 */
export type InventorySource = 'caniemail' | 'emailBugs' | 'vendor';

/** Why a documented behaviour is not modeled. */
export type NotModeledReason =
  /** Depends on the reader's account, settings or OS version, not on the email (a non-Google account in Gmail's app). */
  | 'user-setting'
  /** Shows only in interaction, playback, image decoding or the reader's browser: no markup or CSS of the email changes. */
  | 'not-in-markup'
  /** The sources disagree; the model follows the other one (named in `why`). */
  | 'disputed'
  /** A newer result of the same source no longer shows it. */
  | 'superseded'
  /** A markup or CSS behaviour the models do not express yet: an open gap, counted against the coverage figure. */
  | 'gap';

/** The support layer: caniemail's own flag (supported, partial, unsupported) for the feature, checked by the generated probe spec. */
export const SUPPORT_LAYER = 'caniemail-support';

export type InventoryDecision =
  /** `behavior`: the id of a behaviour of the client's model (its fixture shows it), or SUPPORT_LAYER. */
  | { state: 'modeled'; behavior: string }
  | { state: 'not-modeled'; reason: NotModeledReason; why: string; date: string }
  | { state: 'not-applicable'; why: string };

export type InventoryState = InventoryDecision['state'];

/** One row: one documented behaviour as one source states it for one client, with its decision. */
export interface InventoryRow {
  /** Stable id: `caniemail:css-height#1@yahoo-mail`, `email-bugs:#90@gmail-web`, `vendor:gmail-css-page-…@gmail-web`. */
  id: string;
  source: InventorySource;
  client: ClientId;
  /** What the row is about, in our words (a feature title and note number, an issue title, a vendor fact). */
  subject: string;
  url: string;
  /** The source's own date (caniemail: the feature's last test; an issue: its last activity). */
  sourceDate: string;
  decision: InventoryDecision;
}

export interface InventoryCounts {
  modeled: number;
  notModeled: number;
  notApplicable: number;
}
