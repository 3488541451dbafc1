// The server's CPU per GiB on the v1 chunk path alone: the real server in this process, a
// Node client in a child process posting one file's 10 MiB chunks (BENCH_CHUNK_IN_FLIGHT at
// a time), then the finish. Without Chromium and Playwright in the measured process (the
// browser bench's server CPU includes Playwright's handling of Chromium's events), so the
// server's own CPU seconds, page faults and fdatasyncs per GiB are steadier to compare
// before and after a change. Prints each round; the first one also pays the process's
// warm-up (compilation, the shared chunk buffers' first pages). Not in run.ts: a tool.
// `npx tsx bench/chunk-cpu.ts` (BENCH_CHUNK_BYTES, default 512 MiB; BENCH_CHUNK_ROUNDS, 3;
// BENCH_CHUNK_PROFILE: a file for the V8 CPU profile of the last round; BENCH_PORT).
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSyncCount } from '../server/src/storage/file-syncs';
import { CHUNK_SIZE } from '../server/src/storage/upload-staging';
import { adminSession, startBenchServer } from './session';
import { cpuText, withCpu, withCpuProfile } from './upload-profile';

const PORT = Number(process.env.BENCH_PORT ?? 18591);
const BYTES = Number(process.env.BENCH_CHUNK_BYTES ?? 512 * 1024 ** 2);
const IN_FLIGHT = Number(process.env.BENCH_CHUNK_IN_FLIGHT ?? 4);
const ROUNDS = Number(process.env.BENCH_CHUNK_ROUNDS ?? 3);
const PROFILE = process.env.BENCH_CHUNK_PROFILE;

/** The client: posts chunk i as the seed file's first bytes stamped with i, `inFlight` at a time. */
const CLIENT = `
import http from 'node:http';
import { readFileSync } from 'node:fs';
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
process.on('message', async ({ port, cookie, csrf, urls, inFlight, seedFile, size, chunkSize }) => {
  const seed = readFileSync(seedFile);
  const post = (path, body) => new Promise((resolve, reject) => {
    const headers = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/octet-stream',
      'content-length': body.length };
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(path + ' ' + res.statusCode + text))));
    });
    req.on('error', reject);
    req.end(body);
  });
  let next = 0;
  const send = async () => {
    for (let i = next++; i < urls.length; i = next++) {
      const body = Buffer.from(seed.subarray(0, Math.min(chunkSize, size - i * chunkSize)));
      body.writeUInt32LE(i, 0);
      await post(urls[i], body);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, send));
  process.send({ done: true });
});
`;

function chunkOf(seed: Buffer, index: number): Buffer {
  const body = Buffer.from(seed.subarray(0, Math.min(CHUNK_SIZE, BYTES - index * CHUNK_SIZE)));
  body.writeUInt32LE(index, 0);
  return body;
}

const clientFile = join(tmpdir(), `waymark-chunk-cpu-client-${process.pid}.mjs`);
const seedFile = join(tmpdir(), `waymark-chunk-cpu-seed-${process.pid}`);
const seed = randomFillSync(Buffer.allocUnsafe(CHUNK_SIZE));
writeFileSync(clientFile, CLIENT);
writeFileSync(seedFile, seed);
const count = Math.ceil(BYTES / CHUNK_SIZE);
const hash = createHash('sha1');
for (let i = 0; i < count; i++) hash.update(chunkOf(seed, i));
const fileSha1 = hash.digest('hex');

const bench = await startBenchServer('chunk-cpu', PORT, {
  GLOBAL_WORKSPACE: 'admin',
  GLOBAL_STORAGE: String(64 * 1024 ** 3),
});
const session = await adminSession(bench.server);
const client = fork(clientFile);
try {
  const call = async (path: string, body: string) => {
    const answer = await fetch(`http://127.0.0.1:${PORT}${path}`, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        'x-csrf-token': session.csrf,
        'content-type': 'application/json',
      },
      body,
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${path}: ${answer.status} ${text}`);
    return JSON.parse(text || '{}') as Record<string, unknown>;
  };
  for (let round = 0; round < ROUNDS; round++) {
    const project = `chunk-cpu-${round}`;
    await call('/v1/project/admin', JSON.stringify({ name: project, public: false }));
    const chunks = Array.from({ length: count }, () => randomUUID());
    const added = [{ path: 'data.bin', size: BYTES, checksum: fileSha1, chunks }];
    const { transaction } = await call(
      `/v1/project/push/admin/${project}`,
      JSON.stringify({ version: 'v0', changes: { added, updated: [], removed: [] } }),
    );
    const syncsBefore = fileSyncCount();
    const profile = round === ROUNDS - 1 ? PROFILE : undefined;
    const used = await withCpu(() =>
      withCpuProfile(profile, async () => {
        const started = performance.now();
        const done = new Promise((resolve) => client.once('message', resolve));
        client.send({
          port: PORT,
          cookie: session.cookie,
          csrf: session.csrf,
          urls: chunks.map((id) => `/v1/project/push/chunk/${transaction}/${id}`),
          inFlight: IN_FLIGHT,
          seedFile,
          size: BYTES,
          chunkSize: CHUNK_SIZE,
        });
        await done;
        const chunksMs = performance.now() - started;
        await call(`/v1/project/push/finish/${transaction}`, '');
        return { chunksMs, finishMs: performance.now() - started - chunksMs };
      }),
    );
    const syncs = fileSyncCount() - syncsBefore;
    console.log(
      `round ${round}: ${count} chunks ${used.result.chunksMs.toFixed(0)} ms, finish ` +
        `${used.result.finishMs.toFixed(0)} ms, ${syncs} fdatasyncs; ${cpuText(used, BYTES)}`,
    );
  }
} finally {
  client.kill();
  await bench.close();
  rmSync(clientFile, { force: true });
  rmSync(seedFile, { force: true });
}
