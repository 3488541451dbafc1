// @vitest-environment node
import { QueryClient } from '@tanstack/react-query';
import { isRedirect } from '@tanstack/react-router';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '@/test/fakeServer';
import { initQueryOptions, type InitData } from '@/features/auth/api/init';
import { redirectHome, redirectIfLoggedIn, requireLogin, requireSuperuser } from './guards';

function context(session: InitData) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(initQueryOptions.queryKey, session);
  return { queryClient };
}

const anonymous = context({ authenticated: false, superuser: false });
const user = context({ authenticated: true, superuser: false });
const superuser = context({ authenticated: true, superuser: true });
const location = { href: '/projects/ns/p/settings?x=1' };

async function redirectOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isRedirect(error)) return error.options;
    throw error;
  }
  return null;
}

describe('route guards', () => {
  it('requireLogin sends anonymous visitors to /login with the wanted path', async () => {
    expect(await redirectOf(requireLogin({ context: anonymous, location }))).toMatchObject({
      to: '/login/{-$reset}',
      search: { redirect: '/projects/ns/p/settings?x=1' },
    });
    expect(await redirectOf(requireLogin({ context: user, location }))).toBeNull();
  });

  it('requireSuperuser sends everyone else to /login', async () => {
    const toLogin = { to: '/login/{-$reset}' };
    expect(await redirectOf(requireSuperuser({ context: anonymous, location }))).toMatchObject(
      toLogin,
    );
    const forUser = await redirectOf(requireSuperuser({ context: user, location }));
    expect(forUser).toMatchObject(toLogin);
    expect(forUser?.search).toBeUndefined();
    expect(await redirectOf(requireSuperuser({ context: superuser, location }))).toBeNull();
  });

  it('redirectIfLoggedIn sends logged-in users to the dashboard', async () => {
    expect(await redirectOf(redirectIfLoggedIn({ context: user, location }))).toMatchObject({
      to: '/dashboard',
    });
    expect(await redirectOf(redirectIfLoggedIn({ context: anonymous, location }))).toBeNull();
  });

  it('redirectHome picks the dashboard or the sign-in page', async () => {
    expect(await redirectOf(redirectHome({ context: user, location }))).toMatchObject({
      to: '/dashboard',
    });
    expect(await redirectOf(redirectHome({ context: anonymous, location }))).toMatchObject({
      to: '/login/{-$reset}',
    });
  });

  it('reads the session from /app/init when it is not cached', async () => {
    const server = fakeServer({
      'GET /app/init': () => json({ authenticated: true, superuser: false }),
    });
    const queryClient = new QueryClient();
    expect(await redirectOf(requireLogin({ context: { queryClient }, location }))).toBeNull();
    expect(await redirectOf(requireLogin({ context: { queryClient }, location }))).toBeNull();
    expect(server.calls('GET /app/init')).toHaveLength(1);
    vi.unstubAllGlobals();
  });
});
