// A signed-in admin session for benchmarks that start the real server.
import type { RunningServer } from '../server/src/main';

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
  const cookie = [csrfCookie, ...login.cookies.map((c) => `${c.name}=${c.value}`)].join('; ');
  return { cookie, csrf };
}

export async function signedInCookie(server: RunningServer): Promise<string> {
  return (await adminSession(server)).cookie;
}
