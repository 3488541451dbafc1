// Request overhead of the real server (all hooks: errors, cookies, CSRF, maintenance, auth)
// against a bare Fastify answering the same JSON, both over real HTTP on loopback.
// Target: GET /ping ≤ 1.5× the bare server; GET /app/init ≤ 2× (for an anonymous caller it
// mints a CSRF secret, signs its cookie and a token: work the bare server does not do).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { startServer } from '../server/src/main';
import { measure, report, type BenchResult } from './harness';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);

async function hammer(url: string): Promise<void> {
  for (let i = 0; i < REQUESTS; i++) {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  }
}

export async function benchHttp(): Promise<BenchResult[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'waymark-bench-http-'));
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      PORT: '18431',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: 'Bench-Passw0rd!x',
    },
    { handleSignals: false, exitOnError: false, print: () => {}, distDir: null },
  );
  const bare = Fastify();
  const ping = await (await fetch('http://127.0.0.1:18431/ping')).json();
  bare.get('/ping', async () => ping);
  bare.get('/app/init', async (_request, reply) => {
    reply.header('x-csrf-token', 'x'.repeat(100));
    return { authenticated: false, superuser: false };
  });
  await bare.listen({ host: '127.0.0.1', port: 18432 });
  try {
    return [
      await measure(
        `GET /ping ×${REQUESTS}`,
        () => hammer('http://127.0.0.1:18432/ping'),
        () => hammer('http://127.0.0.1:18431/ping'),
        1.5,
      ),
      await measure(
        `GET /app/init ×${REQUESTS}`,
        () => hammer('http://127.0.0.1:18432/app/init'),
        () => hammer('http://127.0.0.1:18431/app/init'),
        2,
      ),
    ];
  } finally {
    await bare.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report(await benchHttp());
}
