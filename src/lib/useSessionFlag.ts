/**
 * A boolean remembered for the browser session (sessionStorage), e.g. "the storage warning was
 * dismissed". Falls back to memory when storage is unavailable.
 */
import { useCallback, useState } from 'react';

const memory = new Map<string, boolean>();

function read(key: string): boolean {
  try {
    return window.sessionStorage.getItem(key) === '1';
  } catch {
    return memory.get(key) ?? false;
  }
}

function write(key: string, value: boolean): void {
  memory.set(key, value);
  try {
    if (value) window.sessionStorage.setItem(key, '1');
    else window.sessionStorage.removeItem(key);
  } catch {
    // Private modes may refuse storage; the in-memory value still holds for this page.
  }
}

export function useSessionFlag(key: string): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key));
  const set = useCallback(
    (next: boolean) => {
      write(key, next);
      setValue(next);
    },
    [key],
  );
  return [value, set];
}
