/**
 * Sorting the push server's answers (issue 5, client section): what a refusal means for the
 * upload. Signed out keeps the transaction; 5xx, 408, 429 and the busy refusals are retried
 * with backoff; a 404 or a cancelled transaction is gone (the runner resolves it by looking at
 * the project); anything else fails the upload with the server's reason. The texts and codes
 * decided on are the contract's (`@contract/protocol`), as the server sends them.
 */
import { detailOf } from '@/api/errors';
import { PUSH_BUSY_REFUSALS, PUSH_REFUSALS, STORAGE_LIMIT_CODE } from '@contract/protocol';
import { STORAGE_LIMIT_MESSAGE } from '../model/texts';
import { RetryableFailure, SIGNED_OUT_MESSAGE, UNEXPECTED_MESSAGE, UploadFailure } from './errors';
import type { HttpAnswer } from './pushHttp';

/** Turns an unwanted HTTP answer into the matching error. */
export function answerError(answer: HttpAnswer): Error {
  const detail = detailOf(answer.data);
  const { status } = answer;
  if (status === 401) return new UploadFailure(SIGNED_OUT_MESSAGE, { keepTransaction: true });
  if (status === 408 || status === 429 || status >= 500) {
    return new RetryableFailure(detail ?? `HTTP ${status}`);
  }
  if (status === 400 && detail && PUSH_BUSY_REFUSALS.includes(detail)) {
    return new RetryableFailure(detail);
  }
  if ((answer.data as { code?: unknown } | null)?.code === STORAGE_LIMIT_CODE) {
    return new UploadFailure(STORAGE_LIMIT_MESSAGE);
  }
  return new UploadFailure(detail ?? `${UNEXPECTED_MESSAGE} (HTTP ${status})`);
}

export function isOk(answer: HttpAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** A definite 4xx refusal (not signed out, not busy, not gone): no version was made. */
export function isRefusal(answer: HttpAnswer): boolean {
  const error = answerError(answer);
  return (
    answer.status >= 400 &&
    answer.status < 500 &&
    error instanceof UploadFailure &&
    !error.keepTransaction
  );
}

export function isGone(answer: HttpAnswer): boolean {
  return (
    answer.status === 404 ||
    (answer.status === 400 && detailOf(answer.data) === PUSH_REFUSALS.canceled)
  );
}

/** Whether a 422 finish refusal names files whose size or SHA-1 differ from the plan. */
export function isFilesMismatch(answer: HttpAnswer): boolean {
  return (
    answer.status === 422 &&
    (detailOf(answer.data)?.startsWith(PUSH_REFUSALS.filesMismatch) ?? false)
  );
}
