/** GET /ping: server status; its `maintenance` flag switches the client's read-only guard. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { Ping } from '@contract/instance';
import { api } from '@/api';

export const PING_FALLBACK = 'Failed to fetch ping data.';

export async function fetchPing(signal?: AbortSignal): Promise<Ping> {
  const ping = await api.get<Ping>('/ping', { signal, fallbackMessage: PING_FALLBACK });
  api.setMaintenance(ping.maintenance);
  return ping;
}

/** How often the status is read again: now and then, and often while maintenance is on. */
export const PING_INTERVAL_MS = 5 * 60_000;
export const MAINTENANCE_PING_INTERVAL_MS = 10_000;

export const pingQueryOptions = queryOptions({
  queryKey: ['platform', 'ping'] as const,
  // Read by the app for itself: an unreachable server is shown by the offline state, not a toast.
  meta: { quietWhenUnreachable: true },
  queryFn: ({ signal }) => fetchPing(signal),
  // Re-checked now and then so a maintenance window shows up without a reload, and every few
  // seconds while it lasts, so its end shows (and writes work again) soon (issue 31).
  staleTime: 60_000,
  refetchInterval: () => (api.isMaintenance() ? MAINTENANCE_PING_INTERVAL_MS : PING_INTERVAL_MS),
});

/**
 * Whether the server is read-only for maintenance, as the client last learned it (the ping,
 * or the status read again before a write); keeps the status polled.
 */
export function useMaintenance(): boolean {
  useQuery(pingQueryOptions);
  return useSyncExternalStore(api.onMaintenanceChange, api.isMaintenance, () => false);
}
