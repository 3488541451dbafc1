import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor, act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db, getLastWorkspace, rememberWorkspace } from '@/db';
import { fakeServer, json } from '@/test/fakeServer';
import { useCurrentWorkspace, type WorkspaceUser } from './useCurrentWorkspace';

const workspaces = [
  { id: 1, name: 'alpha', role: 'owner' },
  { id: 2, name: 'beta', role: 'reader' },
  { id: 3, name: 'gamma', role: 'writer' },
];

function wrapper() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}

beforeEach(async () => {
  await db.lastWorkspace.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useCurrentWorkspace', () => {
  it('uses the preferred workspace first and remembers it', async () => {
    fakeServer({ 'GET /v1/workspaces': () => json(workspaces) });
    const user: WorkspaceUser = { id: 7, preferred_workspace: 2 };
    const { result } = renderHook(() => useCurrentWorkspace(user), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.workspace?.name).toBe('beta'));
    await waitFor(async () => expect((await getLastWorkspace(7))?.id).toBe(2));
  });

  it('prefers the last workspace seen by this user', async () => {
    await rememberWorkspace(7, 3);
    await rememberWorkspace(8, 1);
    fakeServer({ 'GET /v1/workspaces': () => json(workspaces) });
    const { result } = renderHook(() => useCurrentWorkspace({ id: 7, preferred_workspace: 2 }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.workspace?.name).toBe('gamma'));
  });

  it('falls back to the first workspace and can switch', async () => {
    fakeServer({ 'GET /v1/workspaces': () => json(workspaces) });
    const { result } = renderHook(() => useCurrentWorkspace({ id: 7, preferred_workspace: null }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.workspace?.name).toBe('alpha'));
    await act(() => result.current.setCurrentWorkspace(3));
    await waitFor(() => expect(result.current.workspace?.name).toBe('gamma'));
    expect((await getLastWorkspace(7))?.id).toBe(3);
  });

  it('forgets the memory when the user has no workspace', async () => {
    await rememberWorkspace(7, 3);
    fakeServer({ 'GET /v1/workspaces': () => json([]) });
    const { result } = renderHook(() => useCurrentWorkspace({ id: 7, preferred_workspace: 3 }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.workspace).toBeNull();
    await waitFor(async () => expect(await getLastWorkspace(7)).toBeUndefined());
  });

  it('re-checks when the logged user changes to a different id', async () => {
    await rememberWorkspace(8, 1);
    fakeServer({ 'GET /v1/workspaces': () => json(workspaces) });
    const { result, rerender } = renderHook(
      ({ user }: { user: WorkspaceUser }) => useCurrentWorkspace(user),
      { wrapper: wrapper(), initialProps: { user: { id: 7, preferred_workspace: 2 } } },
    );
    await waitFor(() => expect(result.current.workspace?.name).toBe('beta'));
    rerender({ user: { id: 8, preferred_workspace: 2 } });
    await waitFor(() => expect(result.current.workspace?.name).toBe('alpha'));
  });

  it('does nothing without a user', () => {
    const server = fakeServer({});
    const { result } = renderHook(() => useCurrentWorkspace(null), { wrapper: wrapper() });
    expect(result.current.workspace).toBeNull();
    expect(result.current.isLoading).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
