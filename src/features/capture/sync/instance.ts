/**
 * The page's one edit sender (issue 34): started by a save, by the Map tab or the Outbox, and at
 * start when IndexedDB holds queued edits (components/EditSyncHost.tsx); woken by the `online`
 * event, by Background Sync (the service worker relays it as for uploads) and by every save.
 * It reports the projects with queued edits to the sidebar's Outbox entry, and each batch
 * that landed or was refused to whoever listens (the host refreshes the project's queries).
 */
import { liveQuery } from 'dexie';
import { useSyncExternalStore } from 'react';
import type { EditResult } from '@contract/edits';
import { loadDb } from '@/db/lazy';
import { hashClient } from '@/lib/hashWorker';
import { onUploadQueued, onUploadSync } from '@/offline/backgroundSync';
import { setOutboxCount } from '@/offline/outboxCount';
import { editHttp } from '../api/editHttp';
import { wantEditSync } from './demand';
import { EditSync, type LocksLike, type ProjectSyncState } from './editSync';

export type EditOutcome =
  | { kind: 'landed'; projectPath: string; result: EditResult }
  | { kind: 'refused'; projectPath: string; message: string };

const outcomeListeners = new Set<(outcome: EditOutcome) => void>();
const stateListeners = new Set<() => void>();
let states: ReadonlyMap<string, ProjectSyncState> = new Map();

function emit(outcome: EditOutcome): void {
  for (const listener of [...outcomeListeners]) {
    try {
      listener(outcome);
    } catch {
      // One broken listener must not keep the others from hearing it.
    }
  }
}

let sync: EditSync | null = null;

function instance(): EditSync {
  sync ??= new EditSync({
    db: loadDb,
    http: editHttp,
    sha1: (blob) => hashClient.sha1(blob),
    locks: (globalThis.navigator as { locks?: LocksLike } | undefined)?.locks ?? null,
    isOnline: () => globalThis.navigator?.onLine !== false,
    onLanded: (projectPath, result) => emit({ kind: 'landed', projectPath, result }),
    onRefused: (projectPath, message) => emit({ kind: 'refused', projectPath, message }),
    onChange: () => {
      const current = sync;
      if (!current) return;
      states = new Map(current.snapshot());
      for (const listener of [...stateListeners]) listener();
    },
  });
  return sync;
}

let started = false;

/** Starts the sender once per page: it sends what waits now and whenever it can. */
export function startEditSync(): void {
  // The shell's runner reports outcomes and refreshes the project (EditSyncHost).
  wantEditSync();
  if (started) return;
  started = true;
  const sender = instance();
  window.addEventListener('online', () => sender.wake());
  onUploadSync(() => sender.wake());
  void loadDb().then((db) => {
    // The sidebar's count (rows another tab queued are sent by that tab, or at the next wake).
    liveQuery(
      async () => new Set((await db.featureEdits.toArray()).map((row) => row.projectPath)).size,
    ).subscribe({
      next: (projects) => {
        setOutboxCount(projects, 'edits');
      },
      error: () => undefined,
    });
  });
  sender.wake();
}

/**
 * Online, a save is sent this long after the last one, so saves made in a row (a feature, then
 * its neighbour) go out together as one version rather than one version each.
 */
export const SAVE_SETTLE_MS = 2000;
let settle: ReturnType<typeof setTimeout> | undefined;

/** After a save: the sender starts (or is woken), and the browser is asked to keep the queue. */
export function editSaved(): void {
  startEditSync();
  onUploadQueued();
  clearTimeout(settle);
  settle = setTimeout(() => instance().wake(), SAVE_SETTLE_MS);
}

/** Sends again at once (the Outbox's 'Try again', the network back). */
export function wakeEditSync(): void {
  startEditSync();
  instance().wake();
}

/** Hears each batch that landed or was refused in this tab; returns the remover. */
export function onEditOutcome(listener: (outcome: EditOutcome) => void): () => void {
  outcomeListeners.add(listener);
  return () => outcomeListeners.delete(listener);
}

function subscribe(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** What this tab's sender is doing per project ('namespace/name'). */
export function useEditSyncStates(): ReadonlyMap<string, ProjectSyncState> {
  return useSyncExternalStore(
    subscribe,
    () => states,
    () => states,
  );
}
