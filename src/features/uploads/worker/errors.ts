/** How the upload engine sorts what went wrong, and the texts it shows for it. */

/** Stops the upload as failed with `message`; the record stays so the user can retry. */
export class UploadFailure extends Error {
  override readonly name = 'UploadFailure';
  /** Keep the server transaction (only when retrying it later can still succeed). */
  readonly keepTransaction: boolean;

  constructor(message: string, options: { keepTransaction?: boolean } = {}) {
    super(message);
    this.keepTransaction = options.keepTransaction ?? false;
  }
}

/** A 5xx, 408 or 429 answer, or a server busy with this project: try again after a backoff. */
export class RetryableFailure extends Error {
  override readonly name = 'RetryableFailure';
}

/** The server no longer knows the transaction (finished, cancelled or expired). */
export class TransactionGone extends Error {
  override readonly name = 'TransactionGone';
}

/** The server lost chunks it had acknowledged: sync again with the status call. */
export class ResyncNeeded extends Error {
  override readonly name = 'ResyncNeeded';
}

/**
 * An upload queued offline met a project that moved on after its rebase (its transaction was
 * lost, or the server refused it for an older version): rebase it again onto `latest`.
 */
export class RebaseNeeded extends Error {
  override readonly name = 'RebaseNeeded';

  constructor(readonly latest: { version: string }) {
    super(`The project moved on to ${latest.version}`);
  }
}

export const SIGNED_OUT_MESSAGE = 'You were signed out. Sign in again, then retry the upload.';
export const fileChangedMessage = (path: string) =>
  `The file ${path} changed after it was analysed. Drop the files again to upload the new content.`;
export const fileMissingMessage = (path: string) =>
  `The file ${path} is no longer available in this browser. Drop the files again.`;
export const projectChangedMessage = (version: string) =>
  `The project changed on the server while uploading (it is now at ${version}). Drop the files again to compare with the new version.`;
export const UNEXPECTED_MESSAGE = 'The upload failed.';
export const TOO_MANY_RESYNCS = 'The server keeps losing uploaded chunks. Please try later.';
