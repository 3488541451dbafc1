import { describe, expect, it } from 'vitest';
import { STORAGE_LIMIT_MESSAGE } from '../model/texts';
import { UploadFailure } from './errors';
import { answerError } from './runner';

describe('answerError', () => {
  it('turns an over-quota refusal into its message, without the internal code', () => {
    const error = answerError({
      status: 422,
      data: {
        code: 'StorageLimitHit',
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
