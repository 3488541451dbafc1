import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api';
import { createQueryClient } from './queryClient';

afterEach(() => {
  vi.restoreAllMocks();
});

function failWith(error: unknown, meta?: { silent?: boolean; quietWhenUnreachable?: boolean }) {
  const toast = vi.fn();
  const queryClient = createQueryClient(toast);
  return queryClient
    .fetchQuery({ queryKey: ['x'], queryFn: () => Promise.reject(error), meta })
    .catch(() => toast);
}

describe('query error toasts', () => {
  it('shows the error message of a failed query', async () => {
    const toast = await failWith(
      new ApiError({ status: 500, message: 'Failed to fetch config data.' }),
    );
    expect(toast).toHaveBeenCalledWith('Failed to fetch config data.');
  });

  it('stays quiet for 401s, silent queries and offline network failures', async () => {
    expect(await failWith(new ApiError({ status: 401, message: 'x' }))).not.toHaveBeenCalled();
    expect(
      await failWith(new ApiError({ status: 500, message: 'x' }), { silent: true }),
    ).not.toHaveBeenCalled();
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    expect(
      await failWith(new ApiError({ status: 0, message: 'x', isNetworkError: true })),
    ).not.toHaveBeenCalled();
  });

  it('stays quiet when a query marked quietWhenUnreachable cannot reach the server, online too', async () => {
    const quiet = { quietWhenUnreachable: true };
    expect(
      await failWith(new ApiError({ status: 0, message: 'x', isNetworkError: true }), quiet),
    ).not.toHaveBeenCalled();
    // A server that answers with an error is still told.
    expect(
      await failWith(new ApiError({ status: 500, message: 'Failed to fetch ping data.' }), quiet),
    ).toHaveBeenCalledWith('Failed to fetch ping data.');
    // Unmarked queries still tell a network failure while the browser says it is online.
    expect(
      await failWith(new ApiError({ status: 0, message: 'Failed to fetch', isNetworkError: true })),
    ).toHaveBeenCalledWith('Failed to fetch');
  });

  it('does not retry by default', async () => {
    const queryFn = vi.fn(() => Promise.reject(new Error('nope')));
    const queryClient = createQueryClient(vi.fn());
    await queryClient.fetchQuery({ queryKey: ['y'], queryFn }).catch(() => undefined);
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});
