// Projects at scale, with the real server on an embedded database:
// - the project list's p95 latency with 10,000 projects against the same with 100 projects,
//   measured in the same run (target ≤ 2×), for the default listing and a name search. The
//   search matches the same 30 projects ('field plot N') at both sizes, so the result (a page
//   of 25 and a count of 30) is equal and only the rows it must skip grow; a trigram index
//   (projects_name_trgm_idx) serves it, where a sequential ILIKE scan grew linearly (3.6×);
// - a zip download of a 1 GB project streams with flat memory (peak RSS growth < 100 MB) and
//   costs at most 3× reading the same bytes straight from the blob store.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { commitVersion, type CommitFile } from '../server/src/services/versions';
import type { RunningServer } from '../server/src/main';
import { percentile, ratioResult, report, type BenchResult } from './harness';
import { signedInCookie, startBenchServer } from './session';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

async function seedProjects(
  server: RunningServer,
  from: number,
  to: number,
  prefix = 'survey',
): Promise<void> {
  await server.database.withClient(async (client) => {
    await client.exec(`
      INSERT INTO projects (workspace_id, name, public, creator_id, created_at, updated_at)
      SELECT 1, '${prefix} ' || n, n % 3 = 0, 1,
             now() - (n || ' minutes')::interval, now() - (n || ' minutes')::interval
      FROM generate_series(${from}, ${to}) AS n;
      INSERT INTO project_versions (project_id, name, author_id, created_at, project_size, changes)
      SELECT id, 0, 1, created_at, 0, '{"added":0,"updated":0,"updated_diff":0,"removed":0}'
      FROM projects WHERE name IN (SELECT '${prefix} ' || n FROM generate_series(${from}, ${to}) AS n);
      INSERT INTO project_members (project_id, user_id, role)
      SELECT id, 1, 'owner' FROM projects
      WHERE name IN (SELECT '${prefix} ' || n FROM generate_series(${from}, ${to}) AS n);
      ANALYZE;
    `);
  });
}

/**
 * p95 of `url`, each request after a commit (untimed), as on a server where something is always
 * being written: otherwise the read cache (db/read-cache.ts) would answer every repeat from
 * memory, and this would not measure the queries' cost at scale.
 */
async function p95(server: RunningServer, cookie: string, url: string): Promise<number> {
  const times: number[] = [];
  const { hits } = server.app.ctx.readCache.stats;
  for (let i = 0; i < SAMPLES + 10; i++) {
    await server.database.withClient((client) => client.query('SELECT txid_current()'));
    const t = performance.now();
    const response = await server.app.inject({ method: 'GET', url, headers: { cookie } });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    if (i >= 10) times.push(performance.now() - t);
  }
  if (server.app.ctx.readCache.stats.hits !== hits) throw new Error(`${url}: read from the cache`);
  return percentile(times, 95);
}

async function benchList(server: RunningServer): Promise<BenchResult[]> {
  const cookie = await signedInCookie(server);
  const listing = '/v1/project/paginated?page=1&per_page=25&order_params=updated_desc';
  const search = '/v1/project/paginated?page=1&per_page=25&order_params=name_asc&name=field%20plot';
  await seedProjects(server, 1, 70);
  await seedProjects(server, 1, 30, 'field plot');
  const small = [await p95(server, cookie, listing), await p95(server, cookie, search)];
  await seedProjects(server, 101, 10_000);
  const large = [await p95(server, cookie, listing), await p95(server, cookie, search)];
  return [
    ratioResult('project list p95, 10,000 vs 100 projects', small[0]!, large[0]!, 2),
    ratioResult('project search p95, 10,000 vs 100 projects', small[1]!, large[1]!, 2),
  ];
}

const FILE_SIZE = 128 * 1024 * 1024;
const FILES = 8;

/** 128 MB of bytes: half random, half repetitive text (so the zip writer deflates some). */
function fileBytes(index: number): Readable {
  const slice = 4 * 1024 * 1024;
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < FILE_SIZE; offset += slice) {
        yield index % 2 === 0
          ? randomBytes(slice)
          : Buffer.alloc(slice, `line ${offset} of file ${index}\n`);
      }
    })(),
  );
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += chunk.byteLength;
  return bytes;
}

async function benchZip(server: RunningServer): Promise<BenchResult[]> {
  const { blobStore } = server.app.ctx;
  const project = await server.database.withClient(async (client) => {
    const rows = await client.query<{ id: string }>(
      `INSERT INTO projects (workspace_id, name, creator_id) VALUES (1, 'big survey', 1) RETURNING id`,
    );
    await client.query(
      `INSERT INTO project_versions (project_id, name, author_id, project_size, changes)
       VALUES ($1, 0, 1, 0, '{"added":0,"updated":0,"updated_diff":0,"removed":0}')`,
      [rows[0]!.id],
    );
    return rows[0]!;
  });
  const added: CommitFile[] = [];
  for (let i = 0; i < FILES; i++) {
    const blob = await blobStore.put(fileBytes(i));
    added.push({
      path: `rasters/tile-${i}.bin`,
      size: blob.size,
      checksum: blob.sha1,
      blobKey: blob.key,
    });
  }
  await server.database.db.transaction((tx) =>
    commitVersion(tx, { project, author: { id: 1 }, added, at: new Date(), blobStore }),
  );
  const cookie = await signedInCookie(server);

  let t = performance.now();
  for (const file of added) await drain(await blobStore.open(file.blobKey));
  const rawMs = performance.now() - t;

  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  t = performance.now();
  const response = await fetch(
    `http://127.0.0.1:${server.port}/v1/project/download/waymark/big%20survey?format=zip`,
    { headers: { cookie } },
  );
  if (!response.ok || !response.body) throw new Error(`zip download: ${response.status}`);
  const zipBytes = await drain(response.body);
  const zipMs = performance.now() - t;
  clearInterval(sampler);
  const growthMb = (peak - before) / 1024 / 1024;
  console.log(
    `     zip of ${(FILES * FILE_SIZE) / 2 ** 30} GiB project: ${(zipBytes / 2 ** 20).toFixed(0)} MiB archive, peak RSS growth ${growthMb.toFixed(1)} MB (limit 100 MB)`,
  );
  const result = ratioResult('zip download of a 1 GiB project vs raw blob reads', rawMs, zipMs, 3);
  return [{ ...result, ok: result.ok && growthMb < 100 }];
}

export async function benchProjects(): Promise<BenchResult[]> {
  const { server, close } = await startBenchServer('projects', 18451);
  try {
    return [...(await benchList(server)), ...(await benchZip(server))];
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report(await benchProjects());
}
