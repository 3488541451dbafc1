// @vitest-environment node
import type { EditBatch as EditBatchBody, EditResult } from '@contract/edits';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/api';
import { openDatabase, type WaymarkDatabase } from '@/db/db';
import { currentBatch, projectEdits, saveEdit } from '../store/editStore';
import { EditSync, failureKind, type EditHttp } from './editSync';

let db: WaymarkDatabase;
beforeEach(async () => {
  db = openDatabase(`sync-${Math.random()}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

const target = { projectPath: 'ws/trees', projectId: 'p1', file: 'survey.gpkg', version: 'v2' };
const point = { type: 'Point', coordinates: [14.4, 50.1] };
const networkError = () => new ApiError({ status: 0, message: 'offline', isNetworkError: true });

/** A server that keeps the first answer per batch id, as the edits call does. */
class FakeServer implements EditHttp {
  versions = 2;
  calls: { batchId: string; body: EditBatchBody }[] = [];
  answers = new Map<string, EditResult>();
  chunks = new Map<string, number>();
  chunkUploads = 0;
  /** Throws this once at the next sendBatch, before (or after: `applied`) applying it. */
  failNext: { error: unknown; applied?: boolean } | null = null;

  async uploadChunk(_projectId: string, bytes: Blob) {
    this.chunkUploads += 1;
    const id = `c${this.chunkUploads}`;
    this.chunks.set(id, bytes.size);
    return { id, valid_until: new Date(Date.now() + 86_400_000).toISOString() };
  }

  async sendBatch(_projectId: string, batchId: string, body: EditBatchBody) {
    this.calls.push({ batchId, body });
    const fail = this.failNext;
    if (fail && !fail.applied) {
      this.failNext = null;
      throw fail.error;
    }
    let answer = this.answers.get(batchId);
    if (!answer) {
      for (const photo of body.photos ?? []) {
        if (!photo.chunks.every((id) => this.chunks.has(id))) {
          throw new ApiError({
            status: 422,
            message: 'Photo chunks missing',
            data: { code: 'PhotoChunks' },
          });
        }
      }
      this.versions += 1;
      answer = {
        version: `v${this.versions}`,
        rebased_onto: body.base_version,
        inserted: body.changes.filter((c) => c.op === 'insert').length,
        updated: body.changes.filter((c) => c.op === 'update').length,
        deleted: body.changes.filter((c) => c.op === 'delete').length,
        fids: body.changes
          .filter((c) => c.op === 'insert')
          .map((c, i) => ({ file: c.file, layer: c.layer, client_fid: c.fid, fid: 100 + i })),
        conflicts: [],
        conflict_files: [],
        photos: (body.photos ?? []).map((p) => p.path),
      };
      this.answers.set(batchId, answer);
    }
    if (fail?.applied) {
      this.failNext = null;
      throw fail.error;
    }
    return answer;
  }
}

function makeSync(server: FakeServer, online: { value: boolean }, landed: EditResult[] = []) {
  return new EditSync({
    db: async () => db,
    http: server,
    sha1: async (blob) => `${'a'.repeat(39)}${blob.size % 10}`,
    isOnline: () => online.value,
    sleep: () => new Promise((resolve) => setTimeout(resolve, 1)),
    onLanded: (_path, result) => landed.push(result),
  });
}

async function queueFour() {
  await saveEdit(
    db,
    target,
    {
      kind: 'insert',
      layer: 'trees',
      values: { name: 'Oak', photo: 'photos/oak.jpg' },
      geometry: point,
    },
    [{ path: 'photos/oak.jpg', blob: new Blob(['jpeg bytes']) }],
  );
  await saveEdit(db, target, {
    kind: 'update',
    layer: 'trees',
    fid: 2,
    values: { name: 'Elm' },
    before: { name: 'Ash' },
  });
  await saveEdit(
    db,
    { ...target, version: 'v1' },
    { kind: 'insert', layer: 'zones', values: {}, geometry: null },
  );
  await saveEdit(db, target, { kind: 'delete', layer: 'trees', fid: 3, before: { name: 'Fir' } });
}

describe('sending queued edits', () => {
  it('waits offline; once online every save goes out as one batch and one version', async () => {
    const server = new FakeServer();
    const online = { value: false };
    const landed: EditResult[] = [];
    const sync = makeSync(server, online, landed);
    await queueFour();
    sync.wake();
    await sync.idle();
    expect(server.calls).toEqual([]);
    expect(sync.state('ws/trees')).toEqual({ phase: 'waiting-network' });

    online.value = true;
    sync.wake();
    await sync.idle();
    expect(server.calls).toHaveLength(1);
    const { body } = server.calls[0]!;
    expect(body.base_version).toBe('v2');
    expect(body.changes.map((c) => [c.op, c.layer, c.fid])).toEqual([
      ['insert', 'trees', -1],
      ['update', 'trees', 2],
      ['insert', 'zones', -1],
      ['delete', 'trees', 3],
    ]);
    expect(body.changes[1]).toMatchObject({ values: { name: 'Elm' }, old: { name: 'Ash' } });
    expect(body.changes[0]).toMatchObject({ geometry: point, values: { name: 'Oak' } });
    expect(body.photos).toEqual([
      { path: 'photos/oak.jpg', size: 10, checksum: `${'a'.repeat(39)}0`, chunks: ['c1'] },
    ]);
    expect(landed.map((r) => r.version)).toEqual(['v3']);
    expect(await projectEdits(db, 'ws/trees')).toEqual([]);
    expect(await db.editPhotos.count()).toBe(0);
    expect(sync.state('ws/trees')).toBeUndefined();
  });

  it('saves made offline one by one still go out as one batch once online', async () => {
    const server = new FakeServer();
    const online = { value: false };
    const sync = makeSync(server, online);
    await saveEdit(db, target, { kind: 'insert', layer: 'trees', values: {}, geometry: point });
    sync.wake();
    await sync.idle();
    await saveEdit(db, target, { kind: 'delete', layer: 'trees', fid: 3, before: {} });
    sync.wake();
    await sync.idle();
    expect(await currentBatch(db, 'ws/trees')).toBeUndefined();
    online.value = true;
    sync.wake();
    await sync.idle();
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.body.changes.map((c) => c.op)).toEqual(['insert', 'delete']);
  });

  it('a lost answer is retried under the same batch id: one version, never two', async () => {
    const server = new FakeServer();
    const sync = makeSync(server, { value: true });
    await queueFour();
    server.failNext = { error: networkError(), applied: true };
    sync.wake();
    await sync.idle();
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.batchId).toBe(server.calls[0]!.batchId);
    expect(server.versions).toBe(3);
    expect(await projectEdits(db, 'ws/trees')).toEqual([]);
  });

  it('a batch cut off by a reload is resumed with its id, its photos not uploaded twice', async () => {
    const server = new FakeServer();
    await queueFour();
    // The first tab dies after the photo went up, before the edits call answered.
    const online = { value: true };
    const dying = new EditSync({
      db: async () => db,
      http: {
        uploadChunk: (id, bytes) => server.uploadChunk(id, bytes),
        sendBatch: async () => {
          online.value = false;
          throw networkError();
        },
      },
      sha1: async () => 'b'.repeat(40),
      isOnline: () => online.value,
    });
    dying.wake();
    await dying.idle();
    dying.stop();
    const stored = await currentBatch(db, 'ws/trees');
    expect(Object.keys(stored!.photoChunks)).toEqual(['photos/oak.jpg']);
    expect(server.chunkUploads).toBe(1);

    const next = makeSync(server, { value: true });
    next.wake();
    await next.idle();
    expect(server.calls.map((call) => call.batchId)).toEqual([stored!.id]);
    expect(server.chunkUploads).toBe(1);
    expect(await projectEdits(db, 'ws/trees')).toEqual([]);
  });

  it('uploads the photos again once when the server lost their chunks', async () => {
    const server = new FakeServer();
    const sync = makeSync(server, { value: true });
    await queueFour();
    const realUpload = server.uploadChunk.bind(server);
    let first = true;
    server.uploadChunk = async (id, bytes) => {
      const answer = await realUpload(id, bytes);
      if (first) server.chunks.delete(answer.id);
      first = false;
      return answer;
    };
    sync.wake();
    await sync.idle();
    expect(server.chunkUploads).toBe(2);
    expect(server.versions).toBe(3);
  });

  it('a refusal keeps the batch and its rows with the server’s message; nothing more is sent', async () => {
    const server = new FakeServer();
    const refused: string[] = [];
    const sync = new EditSync({
      db: async () => db,
      http: server,
      sha1: async () => 'c'.repeat(40),
      isOnline: () => true,
      onRefused: (_path, message) => refused.push(message),
    });
    await queueFour();
    server.failNext = {
      error: new ApiError({
        status: 422,
        message: 'The layer trees has no column name',
        data: { code: 'UnknownColumn' },
      }),
    };
    sync.wake();
    await sync.idle();
    expect(refused).toEqual(['The layer trees has no column name']);
    expect(await currentBatch(db, 'ws/trees')).toMatchObject({
      phase: 'refused',
      error: 'The layer trees has no column name',
    });
    expect(await projectEdits(db, 'ws/trees')).toHaveLength(4);
    sync.wake();
    await sync.idle();
    expect(server.calls).toHaveLength(1);
  });

  it('retries busy and failing servers with backoff, and names what failed', async () => {
    const server = new FakeServer();
    const sync = makeSync(server, { value: true });
    await queueFour();
    server.failNext = {
      error: new ApiError({ status: 409, message: 'Another upload is running' }),
    };
    sync.wake();
    await sync.idle();
    expect(server.calls).toHaveLength(2);
    expect(server.versions).toBe(3);
  });

  it('classifies failures', () => {
    expect(failureKind(networkError())).toBe('network');
    expect(failureKind(new ApiError({ status: 503, message: '' }))).toBe('retry');
    expect(failureKind(new ApiError({ status: 423, message: '' }))).toBe('retry');
    expect(failureKind(new ApiError({ status: 401, message: '' }))).toBe('session');
    expect(failureKind(new ApiError({ status: 403, message: '' }))).toBe('refused');
    expect(failureKind(new ApiError({ status: 400, message: '' }))).toBe('refused');
    expect(
      failureKind(new ApiError({ status: 422, message: '', data: { code: 'PhotoChunks' } })),
    ).toBe('photos');
    expect(failureKind(new Error('boom'))).toBe('retry');
  });
});
