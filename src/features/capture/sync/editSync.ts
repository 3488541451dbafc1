/**
 * Sends the queued field edits (issue 34; docs/decisions/0119-edit-queue.md).
 * Per project, one batch at a time: the one in flight (resumed under its id after a reload or
 * a lost answer: the server answers a repeated `Mm-push-id` with its first outcome, so a batch
 * never makes two versions) or a new one of every open row, so several saves go out as one
 * version. Photos go first as upload chunks (their ids kept with the batch, so a resumed batch
 * uploads only the rest), then the edits call. A network failure waits for the network (the
 * `online` event, Background Sync or a start wakes it) and tries again with backoff; a refusal
 * keeps the batch with the server's message for the Outbox. A Web Lock per project keeps two
 * tabs from sending the same project's batch at once.
 */
import type { EditBatch as EditBatchBody, EditResult } from '@contract/edits';
import { isApiError } from '@/api';
import { CoalescingRun } from '@/lib/coalescingRun';
import type { LocksLike } from '@/lib/locks';
import type { QueuedBatch, UploadedPhoto, WaymarkDatabase } from '@/db/db';
import { CHUNK_SIZE, PHOTO_CHUNKS_CODE } from '@contract/protocol';
import { batchBody } from '../model/batchBody';
import {
  batchContents,
  currentBatch,
  finishBatch,
  nextBatch,
  projectsWithEdits,
  recordPhotoChunks,
  refuseBatch,
} from '../store/editStore';

export interface EditHttp {
  uploadChunk(
    projectId: string,
    bytes: Blob,
    signal?: AbortSignal,
  ): Promise<{ id: string; valid_until?: string }>;
  sendBatch(
    projectId: string,
    batchId: string,
    body: EditBatchBody,
    signal?: AbortSignal,
  ): Promise<EditResult>;
}

export type { LocksLike };

export type ProjectSyncState =
  | { phase: 'waiting-network' }
  | { phase: 'sending' }
  | { phase: 'retrying'; error: string }
  /** Sent by another tab of this browser. */
  | { phase: 'elsewhere' };

export interface EditSyncDeps {
  db: () => Promise<WaymarkDatabase>;
  http: EditHttp;
  sha1: (blob: Blob) => Promise<string>;
  locks?: LocksLike | null;
  isOnline: () => boolean;
  /** Waits `ms` (tests shorten it); a wake() ends any wait early. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The server made the batch's version. */
  onLanded?: (projectPath: string, result: EditResult) => void;
  /** The server refused a batch (kept, with its message). */
  onRefused?: (projectPath: string, message: string) => void;
  /** Something the Outbox or the map shows changed (a state, a batch landed or refused). */
  onChange?: () => void;
}

export const LOCK_PREFIX = 'waymark-edits:';
/** Waits between attempts after failures in a row: 1 s, 2 s, 4 s … 30 s. */
export const backoffMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt);
/** A photo's chunks are uploaded again when they would expire within this margin. */
const CHUNK_MARGIN_MS = 10 * 60 * 1000;
/** The chunk expiry assumed when the server names none (its default is a day). */
const DEFAULT_CHUNK_LIFE_MS = 12 * 60 * 60 * 1000;

/** What a failed call means for the batch. */
export type FailureKind = 'network' | 'retry' | 'photos' | 'refused' | 'session';

export function failureKind(error: unknown): FailureKind {
  if (!isApiError(error)) return 'retry';
  if (error.isNetworkError) return 'network';
  if (error.isMaintenance) return 'retry';
  const { status } = error;
  if (status === 401) return 'session';
  if (
    status === 422 &&
    (error.data as { code?: unknown } | undefined)?.code === PHOTO_CHUNKS_CODE
  ) {
    return 'photos';
  }
  if ([408, 409, 423, 425, 429].includes(status) || status >= 500) return 'retry';
  return 'refused';
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class EditSync {
  private readonly states = new Map<string, ProjectSyncState>();
  private wakers: (() => void)[] = [];
  private stopped = false;
  private readonly pump = new CoalescingRun(
    () => this.round(),
    () => this.stopped,
  );
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly deps: EditSyncDeps) {
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = deps.now ?? (() => Date.now());
  }

  /** The project's state while this tab sends it (undefined: nothing going on). */
  state(projectPath: string): ProjectSyncState | undefined {
    return this.states.get(projectPath);
  }

  /** Every project's state while this tab sends it. */
  snapshot(): [string, ProjectSyncState][] {
    return [...this.states];
  }

  /** Sends what waits (a save, the network back, the app started); waits end at once. */
  wake(): void {
    if (this.stopped) return;
    const waiting = this.wakers.splice(0);
    for (const resolve of waiting) resolve();
    void this.pump.trigger();
  }

  /** Stops after the current request (tests; sign-out). */
  stop(): void {
    this.stopped = true;
    const waiting = this.wakers.splice(0);
    for (const resolve of waiting) resolve();
  }

  /** Resolves when the pump is idle (tests). */
  idle(): Promise<void> {
    return this.pump.idle();
  }

  private setState(projectPath: string, state: ProjectSyncState | undefined): void {
    if (state) this.states.set(projectPath, state);
    else this.states.delete(projectPath);
    this.deps.onChange?.();
  }

  private wait(ms: number): Promise<void> {
    return Promise.race([
      this.sleep(ms),
      new Promise<void>((resolve) => this.wakers.push(resolve)),
    ]);
  }

  /** One round: every project with queued edits, oldest first. */
  private async round(): Promise<void> {
    const db = await this.deps.db();
    for (const projectPath of await projectsWithEdits(db)) {
      if (this.stopped) return;
      await this.runProject(db, projectPath);
    }
  }

  private async runProject(db: WaymarkDatabase, projectPath: string): Promise<void> {
    const work = async () => {
      for (;;) {
        if (this.stopped) return;
        // Offline no batch is made: saves made until the network is back go out together.
        if (!this.deps.isOnline() && !(await currentBatch(db, projectPath))) {
          this.setState(projectPath, { phase: 'waiting-network' });
          return;
        }
        const batch = await nextBatch(db, projectPath);
        if (!batch) {
          this.setState(projectPath, undefined);
          return;
        }
        if (!(await this.send(db, batch))) return;
      }
    };
    const locks = this.deps.locks;
    if (!locks) {
      await work();
      return;
    }
    const ran = await locks.request(
      `${LOCK_PREFIX}${projectPath}`,
      { ifAvailable: true },
      async (lock) => {
        if (!lock) return false;
        await work();
        return true;
      },
    );
    if (!ran) this.setState(projectPath, { phase: 'elsewhere' });
  }

  /** Sends one batch until it landed (true) or must wait: refused, offline, stopped (false). */
  private async send(db: WaymarkDatabase, batch: QueuedBatch): Promise<boolean> {
    let attempt = 0;
    let photosAgain = false;
    for (;;) {
      if (this.stopped) return false;
      if (!this.deps.isOnline()) {
        this.setState(batch.projectPath, { phase: 'waiting-network' });
        return false;
      }
      this.setState(batch.projectPath, { phase: 'sending' });
      try {
        const { rows } = await batchContents(db, batch);
        const photos = await this.uploadPhotos(db, batch);
        const result = await this.deps.http.sendBatch(
          batch.projectId,
          batch.id,
          batchBody(rows, photos),
        );
        await finishBatch(
          db,
          batch,
          result.fids.map((fid) => ({
            file: fid.file,
            layer: fid.layer,
            localFid: fid.client_fid,
            fid: fid.fid,
          })),
        );
        this.deps.onLanded?.(batch.projectPath, result);
        return true;
      } catch (error) {
        const kind = failureKind(error);
        if (kind === 'session') {
          this.setState(batch.projectPath, undefined);
          return false;
        }
        if (kind === 'refused' || (kind === 'photos' && photosAgain)) {
          await refuseBatch(db, batch.id, messageOf(error));
          this.setState(batch.projectPath, undefined);
          this.deps.onRefused?.(batch.projectPath, messageOf(error));
          return false;
        }
        if (kind === 'photos') {
          // The server lost (or expired) the photos' chunks: upload them again, once.
          photosAgain = true;
          batch.photoChunks = {};
          await recordPhotoChunks(db, batch.id, {});
          continue;
        }
        if (kind === 'network' && !this.deps.isOnline()) continue;
        this.setState(batch.projectPath, { phase: 'retrying', error: messageOf(error) });
        await this.wait(backoffMs(attempt));
        attempt += 1;
      }
    }
  }

  /** Uploads the batch's photos not uploaded yet (or about to expire); answers all of them. */
  private async uploadPhotos(
    db: WaymarkDatabase,
    batch: QueuedBatch,
  ): Promise<Record<string, UploadedPhoto>> {
    const { photos } = await batchContents(db, batch);
    const uploaded: Record<string, UploadedPhoto> = {};
    for (const photo of photos) {
      const known = batch.photoChunks[photo.path];
      if (known && known.validUntil - CHUNK_MARGIN_MS > this.now()) {
        uploaded[photo.path] = known;
        continue;
      }
      const checksum = await this.deps.sha1(photo.blob);
      const chunks: string[] = [];
      let validUntil = Infinity;
      for (let start = 0; start < photo.blob.size; start += CHUNK_SIZE) {
        const answer = await this.deps.http.uploadChunk(
          batch.projectId,
          photo.blob.slice(start, start + CHUNK_SIZE),
        );
        chunks.push(answer.id);
        const until = answer.valid_until ? Date.parse(answer.valid_until) : NaN;
        validUntil = Math.min(
          validUntil,
          Number.isFinite(until) ? until : this.now() + DEFAULT_CHUNK_LIFE_MS,
        );
      }
      const sent: UploadedPhoto = { checksum, size: photo.blob.size, chunks, validUntil };
      uploaded[photo.path] = sent;
      batch.photoChunks = { ...batch.photoChunks, [photo.path]: sent };
      await recordPhotoChunks(db, batch.id, batch.photoChunks);
    }
    return uploaded;
  }
}
