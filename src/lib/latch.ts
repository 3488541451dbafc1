/**
 * A page-wide flag that only goes on: `set()` turns it on (idempotent), `useIsSet()` re-renders
 * once it does. The shell's lazily loaded parts (the upload engine, the edit sender) use one
 * each to be mounted when first wanted and stay mounted for the page's life.
 */
import { useSyncExternalStore } from 'react';

export interface Latch {
  set(): void;
  useIsSet(): boolean;
  /** Tests: turns it off again. */
  reset(): void;
}

export function createLatch(): Latch {
  let on = false;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const getSnapshot = () => on;
  const become = (value: boolean) => {
    on = value;
    for (const listener of [...listeners]) listener();
  };
  return {
    set() {
      if (!on) become(true);
    },
    reset: () => become(false),
    useIsSet: () => useSyncExternalStore(subscribe, getSnapshot, getSnapshot),
  };
}
