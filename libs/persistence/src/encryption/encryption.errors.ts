/**
 * A ciphertext whose data key no longer exists: the account was erased, or an anonymous day's key was shredded
 * after its content expired (docs/privacy.md). The content is gone for good; the API answers 410.
 */
export class EncryptedContentGoneError extends Error {
  constructor(readonly dataKeyId: string) {
    super(`the data key ${dataKeyId} was destroyed: the content it sealed is gone`);
    this.name = 'EncryptedContentGoneError';
  }
}

/** A data key that MAILPROOF_DATA_KEYS cannot unwrap (its key was removed from the ring, or changed under its id): an operator's mistake. */
export class DataKeyringError extends Error {
  /** The key id of MAILPROOF_DATA_KEYS it needed (not the key), when one was named; the API's 503 says it. */
  constructor(
    message: string,
    readonly kekId?: string,
  ) {
    super(message);
    this.name = 'DataKeyringError';
  }
}

/**
 * A data key asked for an account that no longer exists (erased between its key's lookup and this write: a
 * replica that had not yet heard of the erasure). Nothing can be stored for it; the API answers 401, as for its key.
 */
export class AccountGoneError extends Error {
  constructor(readonly accountId: string) {
    super(`account ${accountId} no longer exists`);
    this.name = 'AccountGoneError';
  }
}
