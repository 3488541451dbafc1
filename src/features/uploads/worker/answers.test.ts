import { describe, expect, it } from 'vitest';
import { STORAGE_LIMIT_MESSAGE } from '../model/texts';
import { PUSH_BUSY_REFUSALS, PUSH_REFUSALS, STORAGE_LIMIT_CODE } from '@contract/protocol';
import { RetryableFailure, UploadFailure } from './errors';
import { answerError, isFilesMismatch, isGone, isRefusal } from './answers';

describe('answerError', () => {
  it('turns an over-quota refusal into its message, without the internal code', () => {
    const error = answerError({
      status: 422,
      data: {
        code: STORAGE_LIMIT_CODE,
        detail: 'You have reached a data limit (StorageLimitHit)',
        current_usage: 90,
        storage_limit: 100,
      },
    });
    expect(error).toBeInstanceOf(UploadFailure);
    expect(error.message).toBe(STORAGE_LIMIT_MESSAGE);
  });

  it("keeps other refusals' server detail", () => {
    expect(answerError({ status: 400, data: { detail: 'Version mismatch' } }).message).toBe(
      'Version mismatch',
    );
  });
});

describe('sorting refusals by the contract texts', () => {
  it('retries the busy refusals, and nothing else of status 400', () => {
    for (const detail of PUSH_BUSY_REFUSALS) {
      expect(answerError({ status: 400, data: { detail } })).toBeInstanceOf(RetryableFailure);
    }
    expect(answerError({ status: 400, data: { detail: 'Another process' } })).not.toBeInstanceOf(
      RetryableFailure,
    );
  });

  it('counts a cancelled transaction as gone, and not as a refusal', () => {
    const canceled = { status: 400, data: { detail: PUSH_REFUSALS.canceled } };
    expect(isGone(canceled)).toBe(true);
    expect(isGone({ status: 404, data: { detail: 'Not found' } })).toBe(true);
    expect(isGone({ status: 400, data: { detail: 'Version mismatch' } })).toBe(false);
    expect(isRefusal({ status: 400, data: { detail: 'Version mismatch' } })).toBe(true);
    expect(isRefusal({ status: 400, data: { detail: PUSH_REFUSALS.finishing } })).toBe(false);
  });

  it('knows the finish refusal naming mismatched files by its start', () => {
    const detail = `${PUSH_REFUSALS.filesMismatch}: a.gpkg (UploadError)`;
    expect(isFilesMismatch({ status: 422, data: { detail, files: ['a.gpkg'] } })).toBe(true);
    expect(isFilesMismatch({ status: 400, data: { detail } })).toBe(false);
    expect(isFilesMismatch({ status: 422, data: { detail: 'Version mismatch' } })).toBe(false);
  });
});
