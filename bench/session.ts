// A signed-in admin session for benchmarks that start the real server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../server/src/main';

export const BENCH_ADMIN_PASSWORD = 'Bench-Passw0rd!x';

/** Cookie header of a signed-in admin session, plus the CSRF token for mutations. */
export async function adminSession(
  server: RunningServer,
): Promise<{ cookie: string; csrf: string }> {
  const init = await server.app.inject({ method: 'GET', url: '/app/init' });
  const csrfCookie = init.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const csrf = String(init.headers['x-csrf-token']);
  const login = await server.app.inject({
    method: 'POST',
    url: '/app/auth/login',
    headers: { cookie: csrfCookie, 'x-csrf-token': csrf },
    payload: { login: 'admin', password: BENCH_ADMIN_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  // Cookies by name: those the sign-in set replace the ones before it.
  const jar = new Map([...init.cookies, ...login.cookies].map((c) => [c.name, c.value]));
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  // The token is bound to the session: signing in answers the session's own.
  return { cookie, csrf: String(login.headers['x-csrf-token'] ?? csrf) };
}

export async function signedInCookie(server: RunningServer): Promise<string> {
  return (await adminSession(server)).cookie;
}

/**
 * The real server, quiet, on an embedded database in a fresh data folder (10 GiB of workspace
 * storage; `env` adds or overrides variables), with the bench admin; `close` stops it and
 * removes the folder.
 */
export async function startBenchServer(
  name: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; dataDir: string; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), `waymark-bench-${name}-`));
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      GLOBAL_STORAGE: String(10 * 2 ** 30),
      ...env,
    },
    { handleSignals: false, exitOnError: false, print: () => {}, distDir: null },
  );
  return {
    server,
    dataDir,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
