/**
 * Whether this page needs the edit sender (issue 34). It loads lazily (issue 8's bundle
 * budget): the shell mounts it once an edit is queued in this browser (checked at start with
 * the bare IndexedDB API) or saved. Once wanted, it stays wanted for the page's life.
 */
import { createLatch } from '@/lib/latch';

const wanted = createLatch();

export const wantEditSync: () => void = wanted.set;

export const useEditSyncWanted: () => boolean = wanted.useIsSet;
