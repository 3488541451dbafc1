/**
 * The upload queue and the browser (issue 8): while uploads are queued the app asks for
 * persistent storage (so the browser does not evict the queued bytes) and registers a
 * Background Sync, where the browser has it, whose 'sync' event makes the service worker wake
 * the pages' upload engine (src/sw/sw.ts). Elsewhere the engine resumes on start and on the
 * 'online' event (features/uploads/worker).
 */
import type { ServiceWorkerToClientMessage } from '@/sw/messages';
import { UPLOAD_SYNC_TAG } from '@/sw/offline';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

export interface BrowserParts {
  serviceWorker?: Pick<
    ServiceWorkerContainer,
    'getRegistration' | 'addEventListener' | 'removeEventListener'
  >;
  storage?: Pick<StorageManager, 'persist' | 'persisted'>;
}

function browserParts(): BrowserParts {
  const nav = globalThis.navigator as Navigator | undefined;
  return { serviceWorker: nav?.serviceWorker, storage: nav?.storage };
}

/** Registers the upload Background Sync; false where the browser has none. */
export async function registerUploadSync(parts: BrowserParts = browserParts()): Promise<boolean> {
  try {
    const registration = await parts.serviceWorker?.getRegistration();
    const sync = (registration as { sync?: SyncManagerLike } | undefined)?.sync;
    if (!sync) return false;
    await sync.register(UPLOAD_SYNC_TAG);
    return true;
  } catch {
    // Not allowed (e.g. no permission): 'online' and the next start still resume the queue.
    return false;
  }
}

/** Asks for persistent storage unless granted already; resolves whether it is persistent. */
export async function requestPersistentStorage(
  parts: BrowserParts = browserParts(),
): Promise<boolean> {
  const storage = parts.storage;
  if (!storage?.persist) return false;
  try {
    if (await storage.persisted?.()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}

/** Both, when an upload is queued. */
export function onUploadQueued(parts: BrowserParts = browserParts()): void {
  void requestPersistentStorage(parts);
  void registerUploadSync(parts);
}

function isResumeMessage(data: unknown): data is ServiceWorkerToClientMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === 'uploads/resume'
  );
}

/** Calls `listener` whenever the service worker relays a Background Sync; returns a stop function. */
export function onUploadSync(
  listener: () => void,
  parts: BrowserParts = browserParts(),
): () => void {
  const container = parts.serviceWorker;
  if (!container) return () => undefined;
  const handler = (event: Event) => {
    if (isResumeMessage((event as MessageEvent).data)) listener();
  };
  container.addEventListener('message', handler);
  return () => container.removeEventListener('message', handler);
}
