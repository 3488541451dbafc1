/**
 * Whether a closable element (banner, tip) was dismissed on this device, remembered in IndexedDB
 * (Dexie closedElements, spec 000 §2 "closed elements"). While the answer is being read the
 * element counts as closed, so a dismissed banner never flashes on load.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { closeElement, isElementClosed } from '@/db/closedElements';

export const closedElementQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['device', 'closed-element', id] as const,
    // Storage may be unavailable (private modes): then nothing counts as closed.
    queryFn: () => isElementClosed(id).catch(() => false),
    staleTime: Infinity,
    meta: { silent: true },
  });

export interface ClosedElementState {
  /** True once known to be open; false while loading or when closed. */
  isOpen: boolean;
  /**
   * Remembers the element closed, then closes it: once it is gone from the screen a reload keeps
   * it closed (it closes for this page even if storage fails).
   */
  close: () => Promise<void>;
}

export function useClosedElement(id: string): ClosedElementState {
  const queryClient = useQueryClient();
  const query = useQuery(closedElementQueryOptions(id));
  const close = useCallback(async () => {
    await closeElement(id).catch(() => undefined);
    queryClient.setQueryData(closedElementQueryOptions(id).queryKey, true);
  }, [id, queryClient]);
  return { isOpen: query.data === false, close };
}
