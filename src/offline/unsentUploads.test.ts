import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/db';
import { countUnsentUploads } from './unsentUploads';

afterEach(async () => {
  await db.uploads.clear();
  await db.featureEdits.clear();
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

  it('counts each project with field edits not sent yet as one upload', async () => {
    const row = {
      projectId: 'p',
      file: 'a.gpkg',
      layer: 't',
      kind: 'update' as const,
      fid: 1,
      values: {},
      before: {},
      photos: [],
      baseVersion: 'v1',
      batchId: null,
      createdAt: 1,
      updatedAt: 1,
    };
    await db.featureEdits.bulkPut([
      { ...row, id: '1', projectPath: 'ws/p' },
      { ...row, id: '2', projectPath: 'ws/p', fid: 2 },
      { ...row, id: '3', projectPath: 'ws/q' },
    ]);
    expect(await countUnsentUploads()).toBe(2);
  });
});
