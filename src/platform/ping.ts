/** GET /ping: server status; its `maintenance` flag switches the client's read-only guard. */
import { queryOptions } from '@tanstack/react-query';
import type { Ping } from '@contract/instance';
import { api } from '@/api';

/** What the app reads of GET /ping (an older server may leave keys out). */
export type PingData = Pick<Ping, 'maintenance'> &
  Partial<Pick<Ping, 'version' | 'blacklist_dirs' | 'blacklist_files'>>;

export const PING_FALLBACK = 'Failed to fetch ping data.';

export async function fetchPing(signal?: AbortSignal): Promise<PingData> {
  const data = await api.get<Partial<PingData> | undefined>('/ping', {
    signal,
    fallbackMessage: PING_FALLBACK,
  });
  const ping: PingData = { ...data, maintenance: data?.maintenance === true };
  api.setMaintenance(ping.maintenance);
  return ping;
}

export const pingQueryOptions = queryOptions({
  queryKey: ['platform', 'ping'] as const,
  queryFn: ({ signal }) => fetchPing(signal),
  // Re-checked now and then so a maintenance window shows up (and ends) without a reload.
  staleTime: 60_000,
  refetchInterval: 5 * 60_000,
});
