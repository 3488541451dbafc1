/**
 * A chunk's received prefix (issue 18, docs/decisions/0104-chunk-prefix.md): when a chunk
 * request breaks off, the bytes that arrived stay staged, the status call names them
 * (`chunk_prefixes`), and a request with CHUNK_OFFSET_HEADER sends only the rest. The
 * connection is really cut: the app listens on a port and the request's socket is destroyed.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Uploads from '../../server/src/db/queries/uploads';
import { CHUNK_OFFSET_HEADER, CHUNK_PREFIX_GONE } from '../../server/src/schemas/protocol';
import { PREFIX_TTL_MS, prefixesOf } from '../../server/src/services/push/chunk-prefixes';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import { finishPush, plan, rawFile, sendChunk, sha1, startPush } from './support/push-client';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

/** Holds the cut request's cleanup (its chunk record's removal) while `gate` is set. */
const cleanup = vi.hoisted(() => ({ gate: null as Promise<void> | null, calls: 0 }));
vi.mock('../../server/src/db/queries/uploads', async (importOriginal) => {
  const actual = await importOriginal<typeof Uploads>();
  return {
    ...actual,
    deleteChunk: async (...args: Parameters<typeof actual.deleteChunk>) => {
      cleanup.calls += 1;
      if (cleanup.gate) await cleanup.gate;
      return actual.deleteChunk(...args);
    },
  };
});

let t: TestApp;
let admin: TestClient;
let port: number;
let count = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await t.close();
});

/** A 12 MiB file (chunks of 10 and 2 MiB) in a new project, and its open transaction. */
async function openUpload() {
  const name = `prefix-${++count}`;
  expect((await admin.post('/v1/project/waymark', { name })).statusCode).toBe(200);
  const bytes = Buffer.alloc(12 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
  const files = plan({ 'survey.gpkg': bytes });
  const start = await startPush(admin, `waymark/${name}`, 'v0', { added: files.list });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  return { project: `waymark/${name}`, bytes, files, transaction };
}

async function prefixes(transaction: string): Promise<Record<string, number>> {
  const status = await admin.get(`/v1/project/push/${transaction}`);
  expect(status.statusCode, status.body).toBe(200);
  return status.json().chunk_prefixes as Record<string, number>;
}

/**
 * Posts `sent` bytes of a chunk over a real connection and cuts it (the socket destroyed,
 * as a lost link does), then waits until the server has kept the prefix it received.
 */
async function cutAfter(transaction: string, chunk: string, bytes: Buffer, sent: number) {
  await cut(transaction, chunk, bytes, sent);
  await expect.poll(async () => (await prefixes(transaction))[chunk] ?? 0).toBeGreaterThan(0);
  return (await prefixes(transaction))[chunk]!;
}

/** Posts `sent` bytes of a chunk over a real connection and cuts it. */
async function cut(transaction: string, chunk: string, bytes: Buffer, sent: number) {
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/v1/project/push/chunk/${transaction}/${chunk}`,
    headers: {
      cookie: admin.cookieHeader(),
      'x-csrf-token': admin.csrfToken ?? '',
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length),
    },
  });
  request.on('error', () => undefined);
  const accepted = new Promise<Socket>((resolve) => t.app.server.once('connection', resolve));
  request.write(bytes.subarray(0, sent));
  // Cut once the server has read a good part of it.
  const socket = await accepted;
  await expect.poll(() => socket.bytesRead).toBeGreaterThan(sent / 2);
  request.destroy();
}

function sendRest(transaction: string, chunk: string, bytes: Buffer, offset: number) {
  return admin.request('POST', `/v1/project/push/chunk/${transaction}/${chunk}`, {
    payload: bytes.subarray(offset),
    headers: { 'content-type': 'application/octet-stream', [CHUNK_OFFSET_HEADER]: String(offset) },
  });
}

describe('a chunk cut off mid-way', () => {
  it('keeps what arrived; the rest completes the chunk and the file', async () => {
    const { project, bytes, files, transaction } = await openUpload();
    const [[first, firstBytes], [second, secondBytes]] = files.chunks as [
      [string, Buffer],
      [string, Buffer],
    ];
    expect(await prefixes(transaction)).toEqual({});
    const held = await cutAfter(transaction, first, firstBytes, 6 * 1024 * 1024);
    expect(held).toBeLessThanOrEqual(6 * 1024 * 1024);
    // Not received: only its prefix is held.
    const status = (await admin.get(`/v1/project/push/${transaction}`)).json();
    expect(status.chunks_received).toEqual([]);

    const rest = await sendRest(transaction, first, firstBytes, held);
    expect(rest.statusCode, rest.body).toBe(200);
    // The answer is the whole chunk's, as if it had been sent at once.
    expect(rest.json()).toEqual({ checksum: sha1(firstBytes), size: CHUNK_SIZE });
    expect(await prefixes(transaction)).toEqual({});
    expect((await sendChunk(admin, transaction, second, secondBytes)).statusCode).toBe(200);

    const finish = await finishPush(admin, transaction);
    expect(finish.statusCode, finish.body).toBe(200);
    const file = await rawFile(admin, project, 'survey.gpkg');
    expect(sha1(file.rawPayload)).toBe(sha1(bytes));
  });

  it('its prefix is told only once the cut request has cleaned up, so the rest is kept', async () => {
    // CI failed once: the cut request removed the chunk's record after the rest had landed.
    const { project, bytes, files, transaction } = await openUpload();
    const [[first, firstBytes], [second, secondBytes]] = files.chunks as [
      [string, Buffer],
      [string, Buffer],
    ];
    let release = () => undefined as void;
    cleanup.gate = new Promise<void>((resolve) => (release = resolve));
    const calls = cleanup.calls;
    try {
      await cut(transaction, first, firstBytes, 6 * 1024 * 1024);
      await expect.poll(() => cleanup.calls).toBeGreaterThan(calls);
      // Cleaning up: nothing is offered to continue yet.
      expect(await prefixes(transaction)).toEqual({});
    } finally {
      cleanup.gate = null;
      release();
    }
    await expect.poll(async () => (await prefixes(transaction))[first] ?? 0).toBeGreaterThan(0);
    const held = (await prefixes(transaction))[first]!;
    expect((await sendRest(transaction, first, firstBytes, held)).statusCode).toBe(200);
    expect((await sendChunk(admin, transaction, second, secondBytes)).statusCode).toBe(200);
    const finish = await finishPush(admin, transaction);
    expect(finish.statusCode, finish.body).toBe(200);
    expect(sha1((await rawFile(admin, project, 'survey.gpkg')).rawPayload)).toBe(sha1(bytes));
  });

  it('sending the chunk whole instead drops the prefix', async () => {
    const { files, transaction } = await openUpload();
    const [first, firstBytes] = files.chunks[0]!;
    await cutAfter(transaction, first, firstBytes, 3 * 1024 * 1024);
    const whole = await sendChunk(admin, transaction, first, firstBytes);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json().checksum).toBe(sha1(firstBytes));
    expect(await prefixes(transaction)).toEqual({});
  });

  it('a rest from another offset than the one held is refused, and the chunk goes whole', async () => {
    const { files, transaction } = await openUpload();
    const [first, firstBytes] = files.chunks[0]!;
    const held = await cutAfter(transaction, first, firstBytes, 3 * 1024 * 1024);
    const wrong = await sendRest(transaction, first, firstBytes, held - 1);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe(CHUNK_PREFIX_GONE);
    // The prefix is gone: the same request with the right offset is refused too.
    expect((await sendRest(transaction, first, firstBytes, held)).statusCode).toBe(409);
    expect(await prefixes(transaction)).toEqual({});
  });

  it('a prefix is forgotten after its time, and by a cancel', async () => {
    const { files, transaction } = await openUpload();
    const [first, firstBytes] = files.chunks[0]!;
    const held = await cutAfter(transaction, first, firstBytes, 3 * 1024 * 1024);
    t.clock.advance(PREFIX_TTL_MS);
    expect(await prefixes(transaction)).toEqual({});
    expect((await sendRest(transaction, first, firstBytes, held)).statusCode).toBe(409);

    await cutAfter(transaction, first, firstBytes, 3 * 1024 * 1024);
    expect((await admin.post(`/v1/project/push/cancel/${transaction}`)).statusCode).toBe(200);
    expect(prefixesOf(transaction, t.clock.now().getTime())).toEqual({});
  });
});

describe('the offset header', () => {
  it.each(['0', '-5', 'abc', '1.5', '123456789'])('%s is refused with 400', async (value) => {
    const { files, transaction } = await openUpload();
    const [first, firstBytes] = files.chunks[0]!;
    const answer = await admin.request('POST', `/v1/project/push/chunk/${transaction}/${first}`, {
      payload: firstBytes,
      headers: { 'content-type': 'application/octet-stream', [CHUNK_OFFSET_HEADER]: value },
    });
    expect(answer.statusCode).toBe(400);
    expect((await admin.get(`/v1/project/push/${transaction}`)).json().chunks_received).toEqual([]);
  });

  it('without a held prefix is answered 409', async () => {
    const { files, transaction } = await openUpload();
    const [, [second, secondBytes]] = files.chunks as [unknown, [string, Buffer]];
    const answer = await sendRest(transaction, second, secondBytes, 5);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().code).toBe(CHUNK_PREFIX_GONE);
  });
});
