// Finish cost does not grow with file size: the server hashes chunks as they arrive and
// finish only checks the running digest and renames the staged file into the blob store.
// Pushes one 2 GiB file and one 10 MB file through the real server over HTTP (chunks sent
// four at a time) and times only their finish calls. Target: 2 GiB finish ≤ 3× 10 MB finish.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../server/src/main';
import { CHUNK_SIZE } from '../server/src/storage/upload-staging';
import { ratioResult, report, type BenchResult } from './harness';
import { adminSession, BENCH_ADMIN_PASSWORD } from './session';

const PORT = 18461;
const BASE = `http://127.0.0.1:${PORT}`;
const ROUNDS = Number(process.env.BENCH_FINISH_ROUNDS ?? 3);
const BIG = 2 * 1024 ** 3;
const SMALL = 10 * 1000 * 1000;
const CONCURRENCY = 4;

interface Session {
  cookie: string;
  csrf: string;
}

/** The bytes of chunk `index` of a file: a repeated 1 MiB pattern stamped with seed and index. */
function chunkBytes(pattern: Buffer, size: number, index: number, seed: number): Buffer {
  const length = Math.min(CHUNK_SIZE, size - index * CHUNK_SIZE);
  const chunk = Buffer.allocUnsafe(length);
  for (let offset = 0; offset < length; offset += pattern.length) {
    pattern.copy(chunk, offset, 0, Math.min(pattern.length, length - offset));
  }
  chunk.writeUInt32LE(seed, 0);
  chunk.writeUInt32LE(index, 4);
  return chunk;
}

async function call(session: Session, path: string, body?: Buffer | string, json = true) {
  const response = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: {
      cookie: session.cookie,
      'x-csrf-token': session.csrf,
      'content-type': json ? 'application/json' : 'application/octet-stream',
    },
    // A copy in a plain ArrayBuffer: what fetch's BodyInit takes under the DOM's types too.
    body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/** Pushes one file of `size` bytes as the project's next version; returns finish time (ms). */
async function pushAndTimeFinish(
  session: Session,
  project: string,
  version: number,
  size: number,
  seed: number,
): Promise<number> {
  const pattern = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < pattern.length; i += 4)
    pattern.writeUInt32LE((i * 2654435761 + seed) >>> 0, i);
  const count = Math.ceil(size / CHUNK_SIZE);
  const sha1 = createHash('sha1');
  for (let i = 0; i < count; i++) sha1.update(chunkBytes(pattern, size, i, seed));
  const chunks = Array.from({ length: count }, () => randomUUID());
  const file = { path: `data-${seed}.bin`, size, checksum: sha1.digest('hex'), chunks };
  const { transaction } = (await call(
    session,
    `/v1/project/push/admin/${project}`,
    JSON.stringify({
      version: `v${version}`,
      changes: { added: [file], updated: [], removed: [] },
    }),
  )) as { transaction: string };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await call(
        session,
        `/v1/project/push/chunk/${transaction}/${chunks[index]}`,
        chunkBytes(pattern, size, index, seed),
        false,
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const started = performance.now();
  await call(session, `/v1/project/push/finish/${transaction}`);
  return performance.now() - started;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

export async function benchUploadFinish(): Promise<BenchResult[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'waymark-bench-finish-'));
  const server: RunningServer = await startServer(
    {
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      GLOBAL_WORKSPACE: 'admin',
      GLOBAL_STORAGE: String(64 * 1024 ** 3),
    },
    { handleSignals: false, exitOnError: false, print: () => {}, distDir: null },
  );
  try {
    const session = await adminSession(server);
    await call(session, '/v1/project/admin', JSON.stringify({ name: 'finish', public: false }));
    const small: number[] = [];
    const big: number[] = [];
    let version = 0;
    let seed = 1;
    for (let round = 0; round < ROUNDS; round++) {
      small.push(await pushAndTimeFinish(session, 'finish', version++, SMALL, seed++));
      big.push(await pushAndTimeFinish(session, 'finish', version++, BIG, seed++));
    }
    return [ratioResult('push finish, 2 GiB file vs 10 MB file', median(small), median(big), 3)];
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchUploadFinish());
