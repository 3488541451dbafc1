/**
 * The upload engine as the page sees it (issue 5): enqueue a plan with its files, watch the
 * live list, hear each outcome once. The work runs in the upload worker; this module keeps the
 * list for React (useUploads) and hands the worker the session's CSRF token and the server's
 * read-only maintenance: during maintenance no upload is queued or retried (spec 000 §8), the
 * refusal comes before any push (after the status was read again: it may have ended), and the
 * worker sends no writes either.
 */
import { useSyncExternalStore } from 'react';
import { ApiError, MAINTENANCE_MESSAGE, api } from '@/api';
import { startUploadWorker } from './workerBridge';
import { onUploadQueued, onUploadSync } from '@/offline/backgroundSync';
import { showAppBadge } from '@/offline/appBadge';
import { setOutboxCount } from '@/offline/outboxCount';
import { isActive } from '../model/progressText';
import type { PushPlan } from '../model/plan';
import type { UploadOutcome, UploadProgress } from '../model/types';
import { wantUploadEngine } from './state/engineDemand';
import type {
  EngineCallbacks,
  EnqueueOptions,
  QueuedBytes,
  UploadBackend,
} from '../model/engineApi';

export type { UploadBackend } from '../model/engineApi';

type BackendFactory = () => UploadBackend;

let factory: BackendFactory = startUploadWorker;
let backend: UploadBackend | null = null;
let started: Promise<void> | null = null;
let uploads: UploadProgress[] = [];
const listListeners = new Set<() => void>();
const settledListeners = new Set<(outcome: UploadOutcome) => void>();
/** Outcomes heard while nobody listened (the lazily loaded upload center was still loading). */
let unheard: UploadOutcome[] = [];

/** The worker's transport asks here, so the page's client refreshes the session's one token. */
async function refreshCsrf(): Promise<string | null> {
  return (await api.refreshCsrf()) ? api.getCsrfToken() : null;
}

/** The count last shown on the app icon. */
let badge = 0;

const callbacks: EngineCallbacks = {
  list(list) {
    uploads = list;
    const waiting = list.filter((u) => isActive(u) || u.phase === 'failed').length;
    setOutboxCount(waiting);
    if (waiting !== badge) showAppBadge((badge = waiting));
    for (const listener of [...listListeners]) listener();
  },
  settled(outcome) {
    // The worker met a maintenance the page did not know of: the page reads the status, so
    // the banner shows and the status is read often until it ends (issue 31).
    if (outcome.kind === 'failed' && outcome.error === MAINTENANCE_MESSAGE) {
      void api.checkMaintenance();
    }
    if (settledListeners.size === 0) {
      unheard.push(outcome);
      return;
    }
    for (const listener of [...settledListeners]) {
      try {
        listener(outcome);
      } catch {
        // One broken listener must not keep the others from hearing the outcome.
      }
    }
  },
  refreshCsrf,
};

function onOnline(): void {
  backend?.wake();
}

let stopSync: (() => void) | null = null;

function ensureStarted(): Promise<UploadBackend> {
  // Whatever uses the engine also needs the upload center to report on it.
  wantUploadEngine();
  if (!backend) {
    backend = factory();
    const current = backend;
    current.setMaintenance(api.isMaintenance());
    api.onMaintenanceChange((on) => current.setMaintenance(on));
    started = current.start(callbacks, api.getCsrfToken());
    if (typeof window !== 'undefined') window.addEventListener('online', onOnline);
    // Background Sync (where the browser has it) wakes the queue through the service worker.
    stopSync ??= onUploadSync(onOnline);
  }
  const current = backend;
  return (started as Promise<void>).then(() => {
    current.setCsrfToken(api.getCsrfToken());
    return current;
  });
}

/** Starts the engine (idempotent): stored uploads resume, and again on 'online'. */
export function startUploadEngine(): void {
  void ensureStarted().catch(() => undefined);
}

/** Queues an upload and starts it at once when online; resolves with its id. */
export async function enqueueUpload(
  plan: PushPlan,
  files: Map<string, QueuedBytes>,
  options?: EnqueueOptions,
): Promise<string> {
  // The status is read again first (issue 31): a maintenance that began since the last ping
  // refuses the upload here, with its changes kept, and one that ended refuses nothing.
  const online = globalThis.navigator?.onLine !== false;
  if (online ? await api.checkMaintenance() : api.isMaintenance()) throw ApiError.maintenance();
  const engine = await ensureStarted();
  const id = await engine.enqueue(plan, [...files], options);
  // Keep the queued bytes from eviction, and let Background Sync resume the queue.
  onUploadQueued();
  return id;
}

export async function cancelUpload(id: string): Promise<void> {
  await (await ensureStarted()).cancel(id);
}

/** Forgets a failed or cancelled upload and its blobs. */
export async function dismissUpload(id: string): Promise<void> {
  await (await ensureStarted()).dismiss(id);
}

/** Queues a failed upload again. */
export async function retryUpload(id: string): Promise<void> {
  if (api.isMaintenance() && (await api.checkMaintenance())) throw ApiError.maintenance();
  await (await ensureStarted()).retry(id);
}

function subscribe(listener: () => void): () => void {
  listListeners.add(listener);
  return () => listListeners.delete(listener);
}

const getSnapshot = () => uploads;

/** The live list of unfinished uploads (failed ones included), oldest first. */
export function useUploads(): UploadProgress[] {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/**
 * Calls `listener` with each upload's outcome; returns a function that stops it. The first
 * listener also hears the outcomes that came while nobody listened.
 */
export function onUploadSettled(listener: (outcome: UploadOutcome) => void): () => void {
  settledListeners.add(listener);
  const earlier = unheard;
  unheard = [];
  for (const outcome of earlier) {
    try {
      listener(outcome);
    } catch {
      // As for live outcomes: a broken listener does not stop the engine.
    }
  }
  return () => settledListeners.delete(listener);
}

/** Tests: run the engine on another backend (e.g. in-process), forgetting the current one. */
export function setUploadBackendFactory(next: BackendFactory | null): void {
  if (typeof window !== 'undefined') window.removeEventListener('online', onOnline);
  stopSync?.();
  stopSync = null;
  factory = next ?? startUploadWorker;
  backend = null;
  started = null;
  uploads = [];
  unheard = [];
  for (const listener of [...listListeners]) listener();
}
