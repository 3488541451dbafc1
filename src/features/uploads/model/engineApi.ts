/**
 * The upload engine's interface between the two execution contexts: what the page calls on
 * the engine (which runs in the upload worker, reached through Comlink) and what the engine
 * calls back on the page.
 */
import type { OfflineBase } from '@/db/uploadQueue';
import type { PushPlan } from './plan';
import type { UploadOutcome, UploadProgress } from './types';

/**
 * The bytes of one file handed to the engine: the id of its staged copy (upload chunks written
 * while it was hashed, src/db/stagedChunks.ts), or a Blob the engine stores as it is.
 */
export type QueuedBytes = Blob | { fileId: string };

export interface EnqueueOptions {
  /** Queued without a connection: rebased onto the latest version before it is sent. */
  offline?: OfflineBase;
}

/** What the page provides to the engine. */
export interface EngineCallbacks {
  list(list: UploadProgress[]): void;
  settled(outcome: UploadOutcome): void;
  /** A fresh CSRF token from the page's API client, or null. */
  refreshCsrf(): Promise<string | null>;
}

/** The engine as the page reaches it. */
export interface UploadBackend {
  start(callbacks: EngineCallbacks, csrfToken: string | null): Promise<void>;
  setCsrfToken(token: string | null): void;
  /** The server's read-only maintenance (from the page's ping): the engine sends no writes. */
  setMaintenance(on: boolean): void;
  enqueue(
    plan: PushPlan,
    files: [string, QueuedBytes][],
    options?: EnqueueOptions,
  ): Promise<string>;
  cancel(id: string): Promise<void>;
  dismiss(id: string): Promise<void>;
  retry(id: string): Promise<void>;
  /** The page saw the browser come online. */
  wake(): void;
}
