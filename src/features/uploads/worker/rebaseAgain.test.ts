// @vitest-environment node
// Uploads queued offline whose project moves on again after their rebase (issue 18): the
// transaction is lost or refused, the plan is rebased again onto the newer version, at most
// MAX_REBASES times; the outcome tells what happened to each file of the original plan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WaymarkDatabase } from '@/db/db';
import { CHUNK_SIZE } from '../model/chunks';
import { projectChangedMessage } from './errors';
import { MAX_REBASES } from './runner';
import { FakePushServer, sha1 } from '../testing/fakePushServer';
import { bytes, newDatabase, openTab, planFor, until } from '../testing/testHarness';

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
