// Throughput of the real API against a bare Fastify, both over real HTTP on loopback with
// keep-alive connections: authenticated project-list requests per second (admin session, 50
// projects, GET /v1/project/paginated) divided by a bare Fastify hello-world's requests per
// second, measured in the same run. Target: at least 0.1. On the embedded PGlite, and on
// PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) points at a server: a scratch
// database is created there and dropped afterwards; without one it is skipped with a message.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { startServer, type RunningServer } from '../server/src/main';
import { report, type BenchResult } from './harness';
import { BENCH_ADMIN_PASSWORD, signedInCookie } from './session';

const DURATION_MS = Number(process.env.BENCH_RPS_MS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_RPS_CONCURRENCY ?? 8);
const MINIMUM = 0.1;
const LIST = '/v1/project/paginated?page=1&per_page=25&order_params=updated_desc';

/** Requests per second: CONCURRENCY loops on keep-alive connections for DURATION_MS. */
async function requestsPerSecond(port: number, path: string, cookie = ''): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path, agent, headers: cookie ? { cookie } : {} },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 200
              ? resolve()
              : reject(new Error(`${path} answered ${response.statusCode}`)),
          );
        },
      );
      request.on('error', reject);
    });
  try {
    // Warm-up: connections open, code paths compiled.
    for (let i = 0; i < 50; i++) await once();
    let done = 0;
    const start = performance.now();
    const end = start + DURATION_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          await once();
          done++;
        }
      }),
    );
    return (done * 1000) / (performance.now() - start);
  } finally {
    agent.destroy();
  }
}

async function seedProjects(server: RunningServer, count: number): Promise<void> {
  await server.database.withClient(async (client) => {
    await client.exec(`
      INSERT INTO projects (workspace_id, name, public, creator_id, created_at, updated_at)
      SELECT 1, 'rps ' || n, n % 3 = 0, 1, now() - (n || ' minutes')::interval,
             now() - (n || ' minutes')::interval
      FROM generate_series(1, ${count}) AS n;
      INSERT INTO project_versions (project_id, name, author_id, created_at, project_size, changes)
      SELECT id, 0, 1, created_at, 0, '{"added":0,"updated":0,"updated_diff":0,"removed":0}'
      FROM projects WHERE name LIKE 'rps %';
      INSERT INTO project_members (project_id, user_id, role)
      SELECT id, 1, 'owner' FROM projects WHERE name LIKE 'rps %';
      ANALYZE;
    `);
  });
}

async function bareHelloRps(port: number): Promise<number> {
  const bare = Fastify();
  bare.get('/', async () => ({ hello: 'world' }));
  await bare.listen({ host: '127.0.0.1', port });
  try {
    return await requestsPerSecond(port, '/');
  } finally {
    await bare.close();
  }
}

async function measureOn(label: string, env: Record<string, string>): Promise<BenchResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'waymark-bench-rps-'));
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      PORT: '18461',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      ...env,
    },
    { handleSignals: false, exitOnError: false, print: () => {}, distDir: null },
  );
  try {
    await seedProjects(server, 50);
    const cookie = await signedInCookie(server);
    // Alternate, so machine noise hits both alike; keep the better of two of each.
    const bare = [await bareHelloRps(18462)];
    const api = [await requestsPerSecond(18461, LIST, cookie)];
    bare.push(await bareHelloRps(18462));
    api.push(await requestsPerSecond(18461, LIST, cookie));
    const bareRps = Math.max(...bare);
    const apiRps = Math.max(...api);
    const ratio = apiRps / bareRps;
    return {
      name: `authenticated project list req/s vs bare Fastify hello-world (${label})`,
      baselineMs: NaN,
      candidateMs: NaN,
      ratio,
      target: MINIMUM,
      ok: ratio >= MINIMUM,
      atLeast: true,
      detail: `${apiRps.toFixed(0)} req/s vs ${bareRps.toFixed(0)} req/s = ${ratio.toFixed(2)}× (target ≥ ${MINIMUM}×, ${CONCURRENCY} connections)`,
    };
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A scratch database on the PostgreSQL server of `url`, or null when none answers. */
async function scratchDatabase(
  url: string,
): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `waymark_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    console.log(
      `skip PostgreSQL req/s: cannot create a database at DATABASE_URL (${String(error)})`,
    );
    await admin.end().catch(() => {});
    return null;
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export async function benchApiRps(): Promise<BenchResult[]> {
  const results = [await measureOn('PGlite', {})];
  const url = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) {
    console.log(
      'skip PostgreSQL req/s: set DATABASE_URL (or BENCH_DATABASE_URL) to a PostgreSQL server ' +
        'whose role may create databases, e.g. postgres://waymark:waymark@127.0.0.1:5432/waymark_ci',
    );
    return results;
  }
  const scratch = await scratchDatabase(url);
  if (!scratch) return results;
  try {
    results.push(await measureOn('PostgreSQL', { DATABASE_URL: scratch.url }));
  } finally {
    await scratch.drop();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report(await benchApiRps());
}
