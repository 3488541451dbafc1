/**
 * Which calls are answered from offline copies right now, and since when those copies date:
 * the offline indicator shows the oldest. A call answered by the server again is fresh; going
 * back online forgets them all (pages refetch, and mark again whatever still fails).
 */
export interface OfflineStatus {
  /** `key` was answered with a copy saved at `savedAt`. */
  served(key: string, savedAt: number): void;
  /** `key` was answered by the server. */
  fresh(key: string): void;
  /** Forgets every served copy (back online). */
  reset(): void;
  /**
   * Runs `reread` (the shown pages read again) and then keeps only the copies served again
   * meanwhile: copies of pages no longer shown are forgotten, without the notice flickering.
   */
  recheck(reread: () => Promise<unknown>): Promise<void>;
  /** When the oldest copy shown was saved, or null when none is shown. */
  savedAt(): number | null;
  subscribe(listener: () => void): () => void;
}

export function createOfflineStatus(): OfflineStatus {
  const served = new Map<string, number>();
  const listeners = new Set<() => void>();
  let snapshot: number | null = null;
  /** Keys served while a recheck runs. */
  let round: Set<string> | null = null;

  function update(): void {
    const next = served.size > 0 ? Math.min(...served.values()) : null;
    if (next === snapshot) return;
    snapshot = next;
    for (const listener of [...listeners]) listener();
  }

  return {
    served(key, savedAt) {
      served.set(key, savedAt);
      round?.add(key);
      update();
    },
    fresh(key) {
      if (served.delete(key)) update();
    },
    reset() {
      served.clear();
      update();
    },
    async recheck(reread) {
      const before = [...served.keys()];
      const again = new Set<string>();
      round = again;
      try {
        await reread();
      } finally {
        if (round === again) round = null;
      }
      for (const key of before) if (!again.has(key)) served.delete(key);
      update();
    },
    savedAt: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const offlineStatus = createOfflineStatus();

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => offlineStatus.reset());
}
