import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/db';
import { countUnsentUploads } from './unsentUploads';

afterEach(async () => {
  await db.uploads.clear();
});

describe('countUnsentUploads', () => {
  it('counts the uploads kept in the queue', async () => {
    expect(await countUnsentUploads()).toBe(0);
    const base = {
      plan: {} as never,
      projectPath: 'ws/p',
      chunks: {},
      transaction: null,
      error: null,
      totalBytes: 1,
      loadedBytes: 0,
      createdAt: 1,
      updatedAt: 1,
    };
    await db.uploads.bulkPut([
      { ...base, id: 'a', phase: 'queued' },
      { ...base, id: 'b', phase: 'failed', error: 'The upload failed.' },
    ]);
    expect(await countUnsentUploads()).toBe(2);
  });
});
