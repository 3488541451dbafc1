/**
 * The upload backend: the queue with its real parts (HTTP, IndexedDB, SHA-1, locks, network
 * watch). It runs inside the upload worker (src/workers/upload.worker.ts), where the page
 * reaches it through Comlink; tests build it in-process with injected parts.
 */
import { abortableSleep } from '@/api/retry';
import { createTransport } from '@/api/transport';
import type { WaymarkDatabase } from '@/db/db';
import type { EngineCallbacks, UploadBackend } from '../model/engineApi';
import { PushHttp, pushPaths } from './pushHttp';
import { waitForNetwork, type NetworkWatch } from './network';
import { UploadQueue, type ChannelLike, type LocksLike } from './queue';

export interface BackendEnv {
  db: WaymarkDatabase;
  fetch: typeof fetch;
  baseUrl?: string;
  locks?: LocksLike | null;
  channel?: ChannelLike | null;
  isOnline(): boolean;
  onOnline(listener: () => void): () => void;
  randomId(): string;
  /** Hex SHA-1 of a Blob (the hashing module, src/workers/sha1.ts): checks a staged copy. */
  sha1(blob: Blob, signal: AbortSignal): Promise<string>;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  concurrency?: number;
  progressIntervalMs?: number;
}

export function createUploadBackend(env: BackendEnv): UploadBackend {
  let callbacks: EngineCallbacks | null = null;
  const transport = createTransport({
    fetch: env.fetch,
    baseUrl: env.baseUrl,
    // The page refreshes the session's token, so page and worker keep using the same one.
    refreshCsrf: async () => (await callbacks?.refreshCsrf().catch(() => null)) ?? null,
  });
  const http = new PushHttp(transport);
  const watch: NetworkWatch = {
    isOnline: env.isOnline,
    onOnline: env.onOnline,
    probe: async (signal) => {
      const answer = await http.call({ method: 'GET', path: pushPaths.ping(), signal });
      return answer.status >= 200 && answer.status < 300;
    },
  };
  const queue = new UploadQueue({
    db: env.db,
    http,
    sleep: env.sleep ?? abortableSleep,
    waitForNetwork: (attempt, signal) => waitForNetwork(watch, attempt, signal),
    random: env.random ?? Math.random,
    now: env.now ?? Date.now,
    randomId: env.randomId,
    sha1: env.sha1,
    concurrency: env.concurrency,
    locks: env.locks,
    channel: env.channel,
    progressIntervalMs: env.progressIntervalMs,
    isOnline: env.isOnline,
    onList: (list) => {
      callbacks?.list(list);
    },
    onSettled: (outcome) => {
      callbacks?.settled(outcome);
    },
  });
  env.onOnline(function again() {
    queue.wake();
    env.onOnline(again);
  });

  return {
    async start(given, token) {
      callbacks = given;
      if (token) transport.setCsrfToken(token);
      await queue.start();
      given.list(queue.list());
    },
    setCsrfToken(token) {
      if (token) transport.setCsrfToken(token);
    },
    setMaintenance: (on) => transport.setMaintenance(on),
    enqueue: (plan, files, options) => queue.enqueue(plan, files, options),
    cancel: (id) => queue.cancel(id),
    dismiss: (id) => queue.dismiss(id),
    retry: (id) => queue.retry(id),
    wake: () => queue.wake(),
  };
}
