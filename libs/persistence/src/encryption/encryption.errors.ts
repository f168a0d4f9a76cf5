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
  constructor(message: string) {
    super(message);
    this.name = 'DataKeyringError';
  }
}
