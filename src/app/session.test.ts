// @vitest-environment node
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '@/api';
import { initQueryOptions } from '@/features/auth/api/init';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { closedElementQueryOptions } from '@/lib/useClosedElement';
import { handleSessionEnded } from './session';

function setup(authenticated: boolean) {
  const fetch = vi.fn(
    async () =>
      new Response('"Authentication information is missing or invalid."', { status: 401 }),
  );
  const api = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
  const queryClient = new QueryClient();
  queryClient.setQueryData(initQueryOptions.queryKey, { authenticated, superuser: false });
  queryClient.setQueryData(profileQueryOptions.queryKey, { id: 1 } as never);
  queryClient.setQueryData(['platform', 'config'], { docs_url: 'x' });
  queryClient.setQueryData(closedElementQueryOptions('tip').queryKey, true);
  const router = { invalidate: vi.fn(async () => undefined) };
  handleSessionEnded(api, queryClient, router);
  return { api, queryClient, router };
}

describe('session ended handler', () => {
  it('clears the user and re-runs the route guards after a 401', async () => {
    const { api, queryClient, router } = setup(true);
    await expect(api.get('/v1/user/profile')).rejects.toBeInstanceOf(ApiError);
    expect(queryClient.getQueryData(initQueryOptions.queryKey)).toEqual({
      authenticated: false,
      superuser: false,
    });
    expect(queryClient.getQueryData(profileQueryOptions.queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(['platform', 'config'])).toEqual({ docs_url: 'x' });
    // What this device remembers does not depend on who is signed in.
    expect(queryClient.getQueryData(closedElementQueryOptions('tip').queryKey)).toBe(true);
    expect(router.invalidate).toHaveBeenCalledTimes(1);
  });

  it('does nothing for a 401 while signed out (e.g. wrong password)', async () => {
    const { api, router } = setup(false);
    await expect(api.post('/app/auth/login', {})).rejects.toMatchObject({ status: 401 });
    expect(router.invalidate).not.toHaveBeenCalled();
  });
});
