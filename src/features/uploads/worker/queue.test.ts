// @vitest-environment node
import { CHUNK_OFFSET_HEADER, PUSH_ID_HEADER } from '@contract/protocol';
import type * as Protocol from '@contract/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaymarkDatabase } from '@/db/db';
import { ChunkStager, sweepStagedFiles } from '@/db/stagedChunks';
import { UPLOAD_CANCELLED_MESSAGE } from '../model/types';
import { CHUNK_SIZE } from '../model/chunks';
import { SIGNED_OUT_MESSAGE, fileChangedMessage, projectChangedMessage } from './errors';
import { MAX_REBASES } from './runner';
import { STAGED_MAX_AGE_MS } from './queue';
import { INITIAL_IN_FLIGHT, MAX_IN_FLIGHT } from './inFlight';
import { FakePushServer, sha1 } from '../testing/fakePushServer';
import {
  FakeChannelBus,
  FakeLocks,
  bytes,
  newDatabase,
  openTab,
  planFor,
  until,
} from '../testing/testHarness';

// The protocol's 10 MiB chunks made every file here tens of MiB to generate, hash and copy:
// what is tested is how files are cut and sent, not the size of a chunk, so the queue, the
// stager and the fake server all use 64 KiB chunks in this file.
vi.mock('@contract/protocol', async (importOriginal) => ({
  ...(await importOriginal<typeof Protocol>()),
  CHUNK_SIZE: 64 * 1024,
}));

const BIG = 2 * CHUNK_SIZE + 12_345; // three chunks

let db: WaymarkDatabase;
let server: FakePushServer;

beforeEach(async () => {
  db = newDatabase();
  await db.open();
  server = new FakePushServer();
});

afterEach(async () => {
  await db.delete();
});

async function storedRows(): Promise<number> {
  return (
    (await db.uploads.count()) + (await db.uploadBlobs.count()) + (await db.uploadChunks.count())
  );
}

function everyChunkWrittenOnce(): void {
  expect([...server.writes.values()].every((n) => n === 1)).toBe(true);
}

describe('upload queue', () => {
  it('uploads files in chunks with at most 4 requests at once and forgets the upload', async () => {
    const tab = openTab(server, db);
    const big = bytes(BIG);
    const second = bytes(CHUNK_SIZE * 2 + 1, 7);
    const { plan, blobs } = await planFor(server, { 'a/big.gpkg': big, 'small.txt': second });
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    const settled = await outcome;
    expect(settled).toMatchObject({ kind: 'finished', id, projectPath: 'ws/proj' });
    expect(server.version).toBe(1);
    expect(await sha1(server.files.get('a/big.gpkg')!.bytes)).toBe(await sha1(big));
    expect(server.count('chunk')).toBe(6);
    everyChunkWrittenOnce();
    expect(server.maxInflight).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(server.maxInflight).toBeGreaterThan(1);
    expect(tab.phases).toContain('uploading');
    expect(tab.queue.list()).toEqual([]);
    await until(async () => (await storedRows()) === 0);
  });

  it('keeps one chunk request in flight on a slow link, the next one starting near its end', async () => {
    // A clock on which every reading is a second later: each chunk request seems to take
    // seconds, as 10 MiB chunks do on a slow link.
    let clock = 0;
    const tab = openTab(server, db, { now: () => (clock += 1000) });
    const data = bytes(4 * CHUNK_SIZE + 5, 3);
    const { plan, blobs } = await planFor(server, { 'a.bin': data });
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(server.count('chunk')).toBe(5);
    expect(server.maxInflight).toBe(INITIAL_IN_FLIGHT);
    // After the first two (sent together, nothing measured yet), each next one waited for the
    // open one to near its end.
    expect(tab.sleeps.length).toBeGreaterThan(0);
    expect(await sha1(server.files.get('a.bin')!.bytes)).toBe(await sha1(data));
    everyChunkWrittenOnce();
  });

  it('runs uploads one after another, oldest first', async () => {
    const tab = openTab(server, db);
    const first = await planFor(server, { 'one.txt': bytes(100) });
    const firstDone = tab.next();
    await tab.queue.enqueue(first.plan, first.blobs);
    // The second plan builds on the version the first one makes.
    await firstDone;
    const second = await planFor(server, { 'two.txt': bytes(200) });
    const secondDone = tab.next();
    await tab.queue.enqueue(second.plan, second.blobs);
    expect((await secondDone).kind).toBe('finished');
    expect(server.version).toBe(2);
    expect([...server.files.keys()].sort()).toEqual(['one.txt', 'two.txt']);
  });

  it('keeps the order of uploads queued in the same millisecond, in IndexedDB too', async () => {
    const tab = openTab(server, db, { now: () => 1000 });
    server.hook = () => 'hang';
    const first = await planFor(server, { 'one.txt': bytes(100) });
    const second = await planFor(server, { 'two.txt': bytes(200) });
    const ids = [
      await tab.queue.enqueue(first.plan, first.blobs),
      await tab.queue.enqueue(second.plan, second.blobs),
    ];
    const stored = (await db.uploads.toArray()).sort((a, b) => a.createdAt - b.createdAt);
    expect(stored.map((row) => row.id)).toEqual(ids);
    expect(stored[0]!.createdAt).toBeLessThan(stored[1]!.createdAt);
    expect(tab.queue.list().map((item) => item.id)).toEqual(ids);
  });

  it('answers a removal-only push as an update', async () => {
    await server.seed({ 'old.txt': 'old', 'keep.txt': 'keep' });
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, {}, ['old.txt']);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    const settled = await outcome;
    expect(settled.kind).toBe('updated');
    expect(settled.kind === 'updated' && settled.project.version).toBe('v2');
    expect([...server.files.keys()]).toEqual(['keep.txt']);
  });

  it('waits for the network and sends neither acknowledged nor server-held chunks again', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'big.bin': bytes(BIG) });
    let chunkRequests = 0;
    server.hook = (request) => {
      if (request.kind !== 'chunk') return undefined;
      chunkRequests += 1;
      // The second chunk reaches the server but its answer is lost; the third never leaves.
      if (chunkRequests === 2) return 'lost';
      if (chunkRequests === 3) return 'network';
      return undefined;
    };
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(tab.networkWaits).toBeGreaterThan(0);
    expect(tab.phases).toContain('waiting-network');
    expect(server.writes.size).toBe(3);
    everyChunkWrittenOnce();
    expect(server.count('status')).toBeGreaterThanOrEqual(2);
    expect(server.count('finish')).toBe(1);
  });

  it('sends only the rest of a chunk cut off mid-way, and the whole chunk when the server lost it', async () => {
    const tab = openTab(server, db, { concurrency: 1 });
    const data = bytes(BIG);
    const { plan, blobs } = await planFor(server, { 'big.bin': data });
    const cut = Math.floor(CHUNK_SIZE / 3) + 17;
    let chunkRequests = 0;
    server.hook = (request) => {
      if (request.kind !== 'chunk') return undefined;
      chunkRequests += 1;
      // The first chunk is cut after `cut` bytes; the second after 5 bytes, and the server
      // then forgets that prefix (a restart) before the rest comes.
      if (chunkRequests === 1) return { cut };
      if (chunkRequests === 3) return { cut: 5 };
      if (chunkRequests === 4) {
        for (const tx of server.transactions.values()) tx.prefixes.clear();
      }
      return undefined;
    };
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(await sha1(server.files.get('big.bin')!.bytes)).toBe(await sha1(data));
    const [first, second] = plan.body.changes.added[0]!.chunks!;
    const sent = server.log.filter((r) => r.kind === 'chunk');
    // The first chunk: cut, then its rest from the prefix the status call named.
    expect(sent[1]).toMatchObject({
      chunk: first,
      headers: { [CHUNK_OFFSET_HEADER]: String(cut) },
    });
    // The second: cut, its rest refused (409), then sent whole.
    expect(sent[3]).toMatchObject({ chunk: second, headers: { [CHUNK_OFFSET_HEADER]: '5' } });
    expect(sent[4]!.chunk).toBe(second);
    expect(sent[4]!.headers[CHUNK_OFFSET_HEADER]).toBeUndefined();
    everyChunkWrittenOnce();
  });

  it('resumes after a reload from the blobs and acknowledgements kept in IndexedDB', async () => {
    const locks = new FakeLocks();
    const first = openTab(server, db, { locks: null, concurrency: 1 });
    const data = bytes(BIG, 3);
    const { plan, blobs } = await planFor(server, { 'photo.tif': data });
    let sent = 0;
    // The tab dies while its second chunk is in flight: the server keeps it, no answer comes.
    server.hook = (request) => {
      if (request.kind !== 'chunk') return undefined;
      sent += 1;
      return sent === 2 ? 'hang' : sent > 2 ? 'hang' : undefined;
    };
    const id = await first.queue.enqueue(plan, blobs);
    await until(() => sent === 2);
    await until(async () => (await db.uploadBlobs.count()) === 1);
    expect(await db.uploadChunks.count()).toBe(1);
    // The hanging request was delivered to the server after all (written, answer lost).
    const tx = [...server.transactions.values()][0]!;
    const secondChunk = tx.added[0]!.chunks[1]!;
    tx.chunks.set(secondChunk, data.slice(CHUNK_SIZE, 2 * CHUNK_SIZE));
    tx.writes.set(secondChunk, 1);
    server.writes.set(secondChunk, 1);

    server.hook = null;
    const reloaded = openTab(server, db, { locks });
    const outcome = reloaded.next();
    await reloaded.queue.start();
    expect(await outcome).toMatchObject({ kind: 'finished', id });
    expect(server.transactions.size).toBe(0);
    expect(server.count('start')).toBe(1);
    everyChunkWrittenOnce();
    expect(await sha1(server.files.get('photo.tif')!.bytes)).toBe(await sha1(data));
  });

  it('backs off 1 s, 2 s, 4 s on 5xx answers, showing the seconds left', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.txt': bytes(1000) });
    let failures = 3;
    server.hook = (request) =>
      request.kind === 'chunk' && failures-- > 0
        ? { status: 503, body: { detail: 'busy' } }
        : undefined;
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(tab.sleeps).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000]);
    const shown = tab.lists
      .flat()
      .filter((p) => p.phase === 'retrying')
      .map((p) => p.retryInSeconds)
      .filter((n, i, all) => i === 0 || all[i - 1] !== n);
    expect(shown).toEqual([1, 2, 1, 4, 3, 2, 1]);
  });

  it('finds a finished version when the answer to finish was lost', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'data.gpkg': bytes(BIG, 5) });
    server.hook = (request) => (request.kind === 'finish' ? 'lost' : undefined);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    const settled = await outcome;
    expect(settled.kind).toBe('finished');
    expect(settled.kind === 'finished' && settled.project.version).toBe('v1');
    expect(server.version).toBe(1);
    expect(server.count('finish')).toBe(1);
    expect(server.count('start')).toBe(1);
  });

  it('starts a new push of the same plan when the transaction expired', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 9) });
    let chunks = 0;
    server.hook = (request) => {
      if (request.kind === 'chunk' && ++chunks === 2) server.transactions.clear();
      return undefined;
    };
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(server.count('start')).toBe(2);
    expect(server.version).toBe(1);
  });

  it('fails when the server finds that a file changed since it was analysed', async () => {
    const tab = openTab(server, db);
    const { plan } = await planFor(server, { 'a.bin': bytes(BIG, 1) });
    const changed = new Map([['a.bin', new Blob([bytes(BIG, 2)])]]);
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, changed);
    expect(await outcome).toEqual({
      kind: 'failed',
      id,
      projectPath: 'ws/proj',
      error: fileChangedMessage('a.bin'),
    });
    expect(server.count('finish')).toBe(1);
    expect(server.count('cancel')).toBe(1);
    expect(server.transactions.size).toBe(0);
    expect(server.version).toBe(0);
    expect(tab.queue.list()).toMatchObject([
      { id, phase: 'failed', error: fileChangedMessage('a.bin') },
    ]);
    await tab.queue.dismiss(id);
    expect(tab.queue.list()).toEqual([]);
    expect(await storedRows()).toBe(0);
  });

  /** The server's answer to a finish whose `paths` do not match (their chunks forgotten). */
  function refuseFiles(paths: string[]) {
    for (const tx of server.transactions.values()) {
      for (const file of [...tx.added, ...tx.updated]) {
        if (paths.includes(file.path)) for (const chunk of file.chunks) tx.chunks.delete(chunk);
      }
    }
    return {
      status: 422,
      body: {
        code: 'UploadError',
        detail: `Files do not match their declared size or checksum: ${paths.join(', ')} (UploadError)`,
        files: paths,
      },
    };
  }

  it('sends a refused file again from its copy when the copy still has the planned checksum', async () => {
    const tab = openTab(server, db);
    const big = bytes(BIG, 1);
    const { plan, blobs } = await planFor(server, { 'a.bin': big, 'b.txt': bytes(40, 2) });
    // The first finish finds a.bin wrong (its bytes were damaged on the way).
    server.hook = (request) =>
      request.kind === 'finish' && server.count('finish') === 1
        ? refuseFiles(['a.bin'])
        : undefined;
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    expect(await outcome).toMatchObject({ kind: 'finished', id });
    expect(server.count('start')).toBe(1);
    expect(server.count('finish')).toBe(2);
    // a.bin's three chunks went twice, b.txt's once.
    expect([...server.writes.values()].sort()).toEqual([1, 2, 2, 2]);
    expect(await sha1(server.files.get('a.bin')!.bytes)).toBe(await sha1(big));
    expect(server.version).toBe(1);
  });

  it('sends a refused file again only once', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 1) });
    server.hook = (request) => (request.kind === 'finish' ? refuseFiles(['a.bin']) : undefined);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect(await outcome).toMatchObject({ kind: 'failed', error: fileChangedMessage('a.bin') });
    expect(server.count('finish')).toBe(2);
    expect(server.count('cancel')).toBe(1);
  });

  it('fails as signed out on 401, keeps the plan, and finishes on retry', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 4) });
    let chunks = 0;
    server.hook = (request) =>
      request.kind === 'chunk' && ++chunks === 2
        ? { status: 401, body: 'Authentication required' }
        : undefined;
    const failed = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    expect(await failed).toMatchObject({ kind: 'failed', error: SIGNED_OUT_MESSAGE });
    expect(server.transactions.size).toBe(1);
    const record = await db.uploads.get(id);
    expect(record?.transaction).toBeTruthy();
    const finished = tab.next();
    await tab.queue.retry(id);
    expect((await finished).kind).toBe('finished');
    expect(server.count('start')).toBe(1);
    everyChunkWrittenOnce();
  });

  it('fails with the server reason on other 4xx answers', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.txt': bytes(10) });
    plan.body.version = 'v7';
    const failed = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect(await failed).toMatchObject({ kind: 'failed', error: 'Version mismatch' });
  });

  it('gets a fresh CSRF token and repeats the request', async () => {
    const tab = openTab(server, db);
    server.csrfToken = 'token-2';
    const { plan, blobs } = await planFor(server, { 'a.txt': bytes(10) });
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(server.count('csrf')).toBe(1);
  });

  it('cancels: aborts chunks in flight, cancels the transaction, forgets the upload', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 6) });
    server.hook = (request) => (request.kind === 'chunk' ? 'hang' : undefined);
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    await until(() => server.count('chunk') === INITIAL_IN_FLIGHT);
    await tab.queue.cancel(id);
    expect(await outcome).toEqual({ kind: 'cancelled', id, projectPath: 'ws/proj' });
    expect(UPLOAD_CANCELLED_MESSAGE).toBe('Operation canceled by the user.');
    expect(server.count('cancel')).toBe(1);
    expect(server.transactions.size).toBe(0);
    expect(tab.queue.list()).toEqual([]);
    expect(await storedRows()).toBe(0);
  });

  it('never runs one upload in two tabs at once', async () => {
    const locks = new FakeLocks();
    const bus = new FakeChannelBus();
    const a = openTab(server, db, { locks, channel: bus.join() });
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 8) });
    server.hook = (request) => (request.kind === 'chunk' ? 'hang' : undefined);
    const outcome = a.next();
    const id = await a.queue.enqueue(plan, blobs);
    await until(() => server.count('chunk') === INITIAL_IN_FLIGHT);

    const b = openTab(server, db, { locks, channel: bus.join() });
    await b.queue.start();
    // Tab b lists the upload with the progress tab a reports, and sends nothing for it.
    await until(() => b.queue.list().some((p) => p.id === id && p.phase === 'uploading'));
    expect(locks.held.has(`waymark-upload:${id}`)).toBe(true);
    expect(server.count('start')).toBe(1);
    expect(server.count('status')).toBe(1);
    await a.queue.cancel(id);
    expect((await outcome).kind).toBe('cancelled');
    await until(() => b.queue.list().length === 0);
    expect(b.outcomes).toEqual([]);
    expect(server.count('start')).toBe(1);
  });

  it('forwards a cancel to the tab that runs the upload', async () => {
    const locks = new FakeLocks();
    const bus = new FakeChannelBus();
    const a = openTab(server, db, { locks, channel: bus.join() });
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 3) });
    server.hook = (request) => (request.kind === 'chunk' ? 'hang' : undefined);
    const outcome = a.next();
    const id = await a.queue.enqueue(plan, blobs);
    await until(() => server.count('chunk') === INITIAL_IN_FLIGHT);
    const b = openTab(server, db, { locks, channel: bus.join() });
    await b.queue.start();
    await until(() => b.queue.list().some((p) => p.id === id));
    await b.queue.cancel(id);
    expect(await outcome).toEqual({ kind: 'cancelled', id, projectPath: 'ws/proj' });
    expect(server.transactions.size).toBe(0);
    await until(() => b.queue.list().length === 0);
    expect(b.outcomes).toEqual([]);
    expect(await storedRows()).toBe(0);
  });

  it('runs an upload another tab held once that tab lets go of it', async () => {
    const locks = new FakeLocks();
    const release = locks.holdElsewhere('waymark-upload:');
    const tab = openTab(server, db, { locks });
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(100, 8) });
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    await until(async () => (await db.uploadBlobs.count()) === 1);
    expect(tab.queue.list()).toMatchObject([{ id, phase: 'queued' }]);
    expect(server.log).toEqual([]);
    release();
    expect(await outcome).toMatchObject({ kind: 'finished', id });
  });
});

describe('retry-safe finish (Mm-push-id)', () => {
  const pushIds = () =>
    server.log.filter((r) => r.kind === 'finish').map((r) => r.headers[PUSH_ID_HEADER]);

  it('sends the same push id again when the answer to finish was lost', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 2) });
    let finishes = 0;
    server.hook = (request) =>
      request.kind === 'finish' && ++finishes === 1 ? 'network' : undefined;
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs);
    expect((await outcome).kind).toBe('finished');
    expect(pushIds()).toEqual([plan.pushId, plan.pushId]);
    expect(plan.pushId).toMatch(/^id-\d+$/);
    expect(server.version).toBe(1);
    everyChunkWrittenOnce();
  });

  it('keeps the push id with the plan in IndexedDB: the finish after a reload repeats it', async () => {
    const first = openTab(server, db, { locks: null });
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(1000, 3) });
    // The tab dies while its finish waits for an answer.
    server.hook = (request) => (request.kind === 'finish' ? 'hang' : undefined);
    const id = await first.queue.enqueue(plan, blobs);
    await until(() => server.count('finish') === 1);
    expect((await db.uploads.get(id))?.plan).toEqual(plan);

    server.hook = null;
    const reloaded = openTab(server, db, { locks: new FakeLocks() });
    const outcome = reloaded.next();
    await reloaded.queue.start();
    expect(await outcome).toMatchObject({ kind: 'finished', id });
    expect(pushIds()).toEqual([plan.pushId, plan.pushId]);
    expect(server.count('start')).toBe(1);
  });

  it('finishes with a new push id after the server refused the finish', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(BIG, 4) });
    let finishes = 0;
    server.hook = (request) => {
      if (request.kind === 'finish' && ++finishes === 1) {
        // The server lost an acknowledged chunk: it refuses the finish (422 missing_chunks)
        // and, like the reference, keeps that refusal for the push id.
        const tx = [...server.transactions.values()][0]!;
        tx.chunks.delete(tx.added[0]!.chunks[1]!);
      }
      return undefined;
    };
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    expect(await outcome).toMatchObject({ kind: 'finished', id });
    const [firstId, secondId] = pushIds();
    expect(pushIds()).toHaveLength(2);
    expect(firstId).toBe(plan.pushId);
    expect(secondId).toBeTruthy();
    expect(secondId).not.toBe(firstId);
    expect(server.version).toBe(1);
  });
  it('finishes a new transaction with a new push id when the first one was lost', async () => {
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'a.bin': bytes(1000, 6) });
    let finishes = 0;
    server.hook = (request) => {
      if (request.kind === 'finish' && ++finishes === 1) {
        // The transaction expires on the server and the answer to the finish is lost: the
        // engine starts a new push of the same plan.
        server.transactions.clear();
        return 'network';
      }
      return undefined;
    };
    const outcome = tab.next();
    const id = await tab.queue.enqueue(plan, blobs);
    expect(await outcome).toMatchObject({ kind: 'finished', id });
    expect(server.count('start')).toBe(2);
    const [firstId, secondId] = pushIds();
    expect(firstId).toBe(plan.pushId);
    expect(secondId).toBeTruthy();
    expect(secondId).not.toBe(firstId);
    expect(server.version).toBe(1);
  });
});

describe('uploads stored before the one plan shape', () => {
  it('are rewritten once on load and resume with their chunk ids', async () => {
    const data = bytes(1000, 5);
    const legacy = {
      id: 'old-1',
      plan: {
        projectId: 'p1',
        namespace: 'ws',
        name: 'proj',
        baseVersion: 'v0',
        added: [{ path: 'a.bin', size: data.length, checksum: await sha1(data), mtime: 'x' }],
        updated: [],
        removed: [],
      },
      chunks: { 'a.bin': ['legacy-chunk'] },
      projectPath: 'ws/proj',
      transaction: null,
      phase: 'queued',
      error: null,
      totalBytes: data.length,
      loadedBytes: 0,
      createdAt: 1,
      updatedAt: 1,
    };
    await db.uploads.put(legacy as never);
    await db.uploadBlobs.put({ uploadId: 'old-1', path: 'a.bin', blob: new Blob([data]) });
    const tab = openTab(server, db);
    const outcome = tab.next();
    await tab.queue.start();
    expect(await outcome).toMatchObject({ kind: 'finished', id: 'old-1' });
    expect([...server.writes.keys()]).toEqual(['legacy-chunk']);
    expect(server.log.find((r) => r.kind === 'finish')?.headers[PUSH_ID_HEADER]).toBeTruthy();
    expect(await sha1(server.files.get('a.bin')!.bytes)).toBe(await sha1(data));
  });
});

/** Stages `data` as the hashing pass does (chunk Blobs in stagedChunks) under `fileId`. */
async function stage(fileId: string, data: Uint8Array): Promise<{ fileId: string }> {
  const stager = new ChunkStager(db, fileId, data.length);
  // Reads of odd sizes, as a stream hands them over.
  for (let start = 0; start < data.length; start += 3_000_001) {
    await stager.push(data.subarray(start, start + 3_000_001));
  }
  await stager.finish();
  return { fileId };
}

describe('staged copies (the file read once)', () => {
  it('sends the chunks written while hashing and removes them with the upload', async () => {
    const tab = openTab(server, db);
    const big = bytes(BIG);
    const { plan } = await planFor(server, { 'a/big.gpkg': big });
    const staged = await stage('file-1', big);
    expect(await db.stagedChunks.where('fileId').equals('file-1').count()).toBe(3);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, [['a/big.gpkg', staged]]);
    // Nothing but the name of the staged copy is stored with the upload.
    expect((await db.uploadBlobs.toArray()).map((row) => row.blob)).toEqual([undefined]);
    expect((await outcome).kind).toBe('finished');
    expect(await sha1(server.files.get('a/big.gpkg')!.bytes)).toBe(await sha1(big));
    everyChunkWrittenOnce();
    await until(async () => (await storedRows()) + (await db.stagedChunks.count()) === 0);
  });

  it('removes staged copies nobody queued after a day, and keeps those of queued uploads', async () => {
    await stage('orphan', bytes(10));
    await stage('young', bytes(10));
    await db.stagedChunks
      .where('fileId')
      .equals('orphan')
      .modify({ at: Date.now() - 2 * STAGED_MAX_AGE_MS });
    expect(await sweepStagedFiles(db, Date.now(), STAGED_MAX_AGE_MS)).toBe(1);
    await db.stagedChunks.where('fileId').equals('young').delete();
    server.hook = (request) => (request.kind === 'project' ? 'network' : undefined);
    const tab = openTab(server, db);
    const { plan } = await planFor(server, { 'kept.txt': bytes(10, 3) });
    await stage('kept', bytes(10, 3));
    const id = await tab.queue.enqueue(plan, [['kept.txt', { fileId: 'kept' }]], {
      offline: { username: 'ana', baseFiles: [] },
    });
    await db.stagedChunks.where('fileId').equals('kept').modify({ at: 0 });
    // What every tab's queue does when it starts.
    expect(await sweepStagedFiles(db, Date.now(), STAGED_MAX_AGE_MS)).toBe(0);
    expect((await db.stagedChunks.toArray()).map((row) => row.fileId)).toEqual(['kept']);
    await tab.queue.cancel(id);
  });
});

describe('uploads queued offline', () => {
  it('go as planned when the project did not move', async () => {
    await server.seed({ 'notes.txt': 'base' });
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'notes.txt': bytes(50) });
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs, {
      offline: {
        username: 'ana',
        baseFiles: [{ path: 'notes.txt', size: 4, checksum: await sha1('base') }],
      },
    });
    const settled = await outcome;
    expect(settled).toMatchObject({
      kind: 'finished',
      files: [{ path: 'notes.txt', kind: 'sent' }],
    });
    expect(server.version).toBe(2);
  });

  it('are rebased: a file changed on both sides goes beside the server copy, a deletion of a changed file is dropped', async () => {
    await server.seed({ 'data.gpkg': 'base', 'old.txt': 'base', 'other.txt': 'base' });
    const base = [...server.files.values()].map(({ path, size, checksum }) => ({
      path,
      size,
      checksum,
    }));
    const mine = bytes(CHUNK_SIZE + 10, 5);
    const { plan, blobs } = await planFor(server, { 'data.gpkg': mine }, ['old.txt', 'other.txt']);
    // Meanwhile another user changed data.gpkg and old.txt on the server.
    await server.seed({ 'data.gpkg': 'theirs', 'old.txt': 'changed' });
    const theirs = server.files.get('data.gpkg')!.checksum;
    const tab = openTab(server, db);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs, { offline: { username: 'ana', baseFiles: base } });
    const settled = await outcome;
    const copy = 'data (conflicted copy, ana v2).gpkg';
    expect(settled).toMatchObject({
      kind: 'finished',
      files: [
        { path: 'data.gpkg', kind: 'conflicted-copy', copy },
        { path: 'old.txt', kind: 'removal-dropped' },
        { path: 'other.txt', kind: 'removed' },
      ],
    });
    expect(server.version).toBe(3);
    expect(server.files.get('data.gpkg')!.checksum).toBe(theirs);
    expect(await sha1(server.files.get(copy)!.bytes)).toBe(await sha1(mine));
    expect(server.files.has('old.txt')).toBe(true);
    expect(server.files.has('other.txt')).toBe(false);
    everyChunkWrittenOnce();
    await until(async () => (await storedRows()) === 0);
  });

  it('wait for the network before anything is decided', async () => {
    await server.seed({ 'a.txt': 'base' });
    let offline = true;
    server.hook = () => (offline ? 'network' : undefined);
    const tab = openTab(server, db);
    const { plan, blobs } = await planFor(server, { 'b.txt': bytes(20) });
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs, { offline: { username: 'ana', baseFiles: [] } });
    await until(() => tab.networkWaits > 2);
    expect(tab.phases).toContain('waiting-network');
    expect((await db.uploads.toArray())[0]?.offline?.rebased).toBeUndefined();
    offline = false;
    expect((await outcome).kind).toBe('finished');
  });
});

// Uploads queued offline whose project moves on again after their rebase (issue 18).
/** Another user's version, made at once (inside a hook): `path` gets `content`. */
function pushedByOther(path: string, content: Uint8Array, checksum: string): void {
  server.files.set(path, { path, size: content.length, checksum, bytes: content });
  server.version += 1;
}

async function baseFiles() {
  return [...server.files.values()].map(({ path, size, checksum }) => ({ path, size, checksum }));
}

describe('an upload queued offline, the project moving on again', () => {
  it('is rebased again when its transaction was lost meanwhile', async () => {
    await server.seed({ 'data.gpkg': 'base' });
    const base = await baseFiles();
    const mine = bytes(CHUNK_SIZE + 10, 5);
    const notes = bytes(30, 9);
    const { plan, blobs } = await planFor(server, { 'data.gpkg': mine, 'notes.txt': notes });
    // Before it is sent another user changed data.gpkg (v2) …
    await server.seed({ 'data.gpkg': 'theirs' });
    // … and, while its first chunk goes out, added notes.txt (v3); the transaction expired.
    const theirNotes = new TextEncoder().encode('their notes');
    const theirNotesSum = await sha1(theirNotes);
    let moved = false;
    server.hook = (request) => {
      if (request.kind !== 'chunk' || moved) return undefined;
      moved = true;
      server.transactions.clear();
      pushedByOther('notes.txt', theirNotes, theirNotesSum);
      return { status: 404, body: { detail: 'Not found' } };
    };
    const tab = openTab(server, db);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs, { offline: { username: 'ana', baseFiles: base } });
    const settled = await outcome;

    const dataCopy = 'data (conflicted copy, ana v2).gpkg';
    const notesCopy = 'notes (conflicted copy, ana v3).txt';
    expect(settled).toMatchObject({
      kind: 'finished',
      files: [
        { path: 'notes.txt', kind: 'conflicted-copy', copy: notesCopy },
        { path: 'data.gpkg', kind: 'conflicted-copy', copy: dataCopy },
      ],
    });
    expect(server.version).toBe(4);
    expect(await sha1(server.files.get(dataCopy)!.bytes)).toBe(await sha1(mine));
    expect(await sha1(server.files.get(notesCopy)!.bytes)).toBe(await sha1(notes));
    expect(server.files.get('notes.txt')!.checksum).toBe(theirNotesSum);
    expect(server.count('start')).toBe(2);
    await until(async () => (await db.uploads.count()) + (await db.uploadBlobs.count()) === 0);
  });

  it('is rebased again when the server refused its start for an older version', async () => {
    await server.seed({ 'a.txt': 'base', 'b.txt': 'base' });
    const base = await baseFiles();
    const { plan, blobs } = await planFor(server, { 'a.txt': bytes(20, 1) }, ['b.txt']);
    const theirs = new TextEncoder().encode('theirs');
    const theirsSum = await sha1(theirs);
    let moved = false;
    server.hook = (request) => {
      if (request.kind !== 'start' || moved) return undefined;
      // Between the rebase (nothing moved) and the start, another user changed b.txt.
      moved = true;
      pushedByOther('b.txt', theirs, theirsSum);
      return undefined;
    };
    const tab = openTab(server, db);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs, { offline: { username: 'ana', baseFiles: base } });
    expect(await outcome).toMatchObject({
      kind: 'finished',
      files: [
        { path: 'a.txt', kind: 'sent' },
        { path: 'b.txt', kind: 'removal-dropped' },
      ],
    });
    expect(server.version).toBe(3);
    expect(server.files.get('b.txt')!.checksum).toBe(theirsSum);
    expect(server.count('start')).toBe(2);
  });

  it(`fails as changed after ${MAX_REBASES} more rebases when the project keeps moving`, async () => {
    await server.seed({ 'a.txt': 'base' });
    const base = await baseFiles();
    const { plan, blobs } = await planFor(server, { 'a.txt': bytes(20, 1) });
    const other = new TextEncoder().encode('other');
    const otherSum = await sha1(other);
    server.hook = (request) => {
      // Every start meets a newer version.
      if (request.kind === 'start') pushedByOther(`other-${server.version}.txt`, other, otherSum);
      return undefined;
    };
    const tab = openTab(server, db);
    const outcome = tab.next();
    await tab.queue.enqueue(plan, blobs, { offline: { username: 'ana', baseFiles: base } });
    expect(await outcome).toMatchObject({
      kind: 'failed',
      error: projectChangedMessage(`v${server.version}`),
    });
    expect(server.count('start')).toBe(MAX_REBASES + 1);
  });
});
