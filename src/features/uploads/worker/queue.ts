/**
 * The upload queue of one tab (runs in the upload worker; in tests with injected parts).
 *
 * - Uploads are kept in IndexedDB (plan, blobs, acknowledged chunks) and run one at a time per
 *   tab, oldest first; each runs under a Web Lock named after it, so two tabs never run the
 *   same upload. An upload locked by another tab is skipped and picked up when that lock is
 *   released (the other tab closed, or the upload ended there).
 * - Tabs tell each other (BroadcastChannel) about progress, ends and cancel requests.
 * - Listeners hear the full list whenever it changes (progress is throttled per upload) and
 *   each outcome once, in the tab that ran the upload.
 */
import type { UploadBlob, UploadRecord, WaymarkDatabase } from '@/db/db';
import { deleteStagedFile, stagedFileBlob, sweepStagedFiles } from '@/db/stagedChunks';
import { CoalescingRun } from '@/lib/coalescingRun';
import type { LocksLike } from '@/lib/locks';
import type { EnqueueOptions, QueuedBytes } from '../model/engineApi';
import {
  UPLOAD_CANCELLED_MESSAGE,
  type UploadOutcome,
  type UploadPhase,
  type UploadProgress,
} from '../model/types';
import { chunkCount } from '../model/chunks';
import { changeCounts, projectPathOf, uploadedFiles, type PushPlan } from '../model/plan';
import { queuedFilesOf } from '../model/queued';
import { isLegacyRecord, upgradeLegacyRecord } from './legacyRecord';
import { pushPaths, type PushHttp } from './pushHttp';
import { ProgressTracker } from './progress';
import { runUpload, type RunnerDeps } from './runner';

export type { LocksLike };

/** The part of BroadcastChannel the queue uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

export type ChannelMessage =
  | { type: 'progress'; progress: UploadProgress }
  | { type: 'changed'; id: string }
  | { type: 'cancel'; id: string };

export interface QueueDeps extends Omit<RunnerDeps, 'blob'> {
  db: WaymarkDatabase;
  http: PushHttp;
  locks?: LocksLike | null;
  channel?: ChannelLike | null;
  onList(list: UploadProgress[]): void;
  onSettled(outcome: UploadOutcome): void;
  /** Whether the browser has a connection: a queued upload shows as waiting for the network. */
  isOnline?(): boolean;
  /** Progress report interval (tests shorten it). */
  progressIntervalMs?: number;
}

export const LOCK_PREFIX = 'waymark-upload:';
/** Staged copies no upload names are removed after a day (their pending changes were lost). */
export const STAGED_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Phases that only make sense while a tab runs the upload. */
const RUNNING_PHASES: readonly UploadPhase[] = [
  'hashing',
  'uploading',
  'waiting-network',
  'retrying',
  'finishing',
];

interface Running {
  id: string;
  controller: AbortController;
  done: Promise<void>;
  cancelled: boolean;
}

export class UploadQueue {
  private readonly records = new Map<string, UploadRecord>();
  /** Live progress: of the upload running here, and of uploads other tabs run. */
  private readonly live = new Map<string, UploadProgress>();
  private readonly elsewhere = new Set<string>();
  private running: Running | null = null;
  private readonly wakers: (() => void)[] = [];
  private readonly pump = new CoalescingRun(() => this.round());
  private started: Promise<void> | null = null;

  constructor(private readonly deps: QueueDeps) {
    deps.channel?.addEventListener('message', (event) => {
      void this.onChannel(event.data as ChannelMessage);
    });
  }

  /** Loads the stored uploads and starts the queue (idempotent). */
  start(): Promise<void> {
    this.started ??= (async () => {
      await this.reload();
      await sweepStagedFiles(this.deps.db, this.deps.now(), STAGED_MAX_AGE_MS).catch(() => 0);
      void this.pump.trigger();
    })();
    return this.started;
  }

  /**
   * Nudges the queue (the browser came online, Background Sync fired, the app started): an
   * upload waiting for the network tries again at once.
   */
  wake(): void {
    const waiting = this.wakers.splice(0);
    for (const resolve of waiting) resolve();
    void this.pump.trigger();
  }

  /** Waits for the network as the deps do, or until the next wake(). */
  private waitForNetwork(attempt: number, signal: AbortSignal): Promise<void> {
    const woken = new Promise<void>((resolve) => this.wakers.push(resolve));
    return Promise.race([this.deps.waitForNetwork(attempt, signal), woken]);
  }

  list(): UploadProgress[] {
    return [...this.records.values()]
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((record) => this.live.get(record.id) ?? this.progressOf(record));
  }

  /**
   * Stores the plan as it is (it is what every attempt sends) with its files' bytes: staged
   * copies are named (their chunks are in IndexedDB already), Blobs are stored as they are.
   * Everything is in IndexedDB before this resolves, so a tab closed next loses nothing.
   */
  async enqueue(
    plan: PushPlan,
    given: Iterable<[string, QueuedBytes]>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    await this.start();
    const files = new Map(given);
    const uploaded = uploadedFiles(plan);
    for (const file of uploaded) {
      if (!files.has(file.path)) throw new Error(`No file was given for ${file.path}`);
      if (file.chunks?.length !== chunkCount(file.size)) {
        throw new Error(`The plan has no chunk ids for ${file.path}`);
      }
    }
    const id = this.deps.randomId();
    const now = this.deps.now();
    // Uploads run and are listed oldest first: two queued in the same millisecond still get
    // distinct, rising times (ties would fall back to the random ids after a reload).
    let createdAt = now;
    for (const record of this.records.values()) {
      createdAt = Math.max(createdAt, record.createdAt + 1);
    }
    const record: UploadRecord = {
      id,
      plan,
      projectPath: projectPathOf(plan),
      transaction: null,
      phase: 'queued',
      error: null,
      totalBytes: uploaded.reduce((sum, f) => sum + f.size, 0),
      loadedBytes: 0,
      createdAt,
      updatedAt: now,
      ...(options.offline ? { offline: options.offline } : {}),
    };
    const rows: UploadBlob[] = uploaded.map((f) => {
      const bytes = files.get(f.path) as QueuedBytes;
      return bytes instanceof Blob
        ? { uploadId: id, path: f.path, blob: bytes }
        : { uploadId: id, path: f.path, fileId: bytes.fileId };
    });
    const { db } = this.deps;
    await db.transaction('rw', db.uploads, db.uploadBlobs, async () => {
      await db.uploads.add(record);
      await db.uploadBlobs.bulkPut(rows);
    });
    this.records.set(id, record);
    this.post({ type: 'changed', id });
    this.emitList();
    void this.pump.trigger();
    return id;
  }

  /** Cancels an upload: stops it, cancels the server transaction, forgets it. */
  async cancel(id: string): Promise<void> {
    const record = this.records.get(id) ?? (await this.deps.db.uploads.get(id));
    if (!record) return;
    if (this.running?.id === id) {
      this.running.cancelled = true;
      this.running.controller.abort(new DOMException(UPLOAD_CANCELLED_MESSAGE, 'AbortError'));
      await this.running.done;
      return;
    }
    if (this.elsewhere.has(id)) {
      this.post({ type: 'cancel', id });
      return;
    }
    await this.forget(id, true);
    this.deps.onSettled({ kind: 'cancelled', id, projectPath: record.projectPath });
  }

  /** Forgets a failed or cancelled upload and its blobs (a running one is cancelled). */
  async dismiss(id: string): Promise<void> {
    if (this.running?.id === id || this.elsewhere.has(id)) return this.cancel(id);
    await this.forget(id, true);
  }

  /** Queues a failed upload again. */
  async retry(id: string): Promise<void> {
    const record = this.records.get(id) ?? (await this.deps.db.uploads.get(id));
    if (!record || record.phase !== 'failed') return;
    await this.save(id, { phase: 'queued', error: null });
    this.live.delete(id);
    this.post({ type: 'changed', id });
    this.emitList();
    void this.pump.trigger();
  }

  private progressOf(record: UploadRecord): UploadProgress {
    const chunksTotal = uploadedFiles(record.plan).reduce((n, f) => n + (f.chunks?.length ?? 0), 0);
    // A running phase recorded by a tab that is gone means the upload waits to be resumed.
    const resting =
      RUNNING_PHASES.includes(record.phase) && !this.elsewhere.has(record.id)
        ? 'queued'
        : record.phase;
    const offline = this.deps.isOnline?.() === false;
    const phase = resting === 'queued' && offline ? 'waiting-network' : resting;
    return {
      id: record.id,
      projectPath: record.projectPath,
      phase,
      loadedBytes: record.loadedBytes,
      totalBytes: record.totalBytes,
      chunksDone: 0,
      chunksTotal,
      bytesPerSecond: null,
      secondsLeft: null,
      retryInSeconds: null,
      error: record.error,
      updatedAt: record.updatedAt,
      queuedAt: record.createdAt,
      changes: changeCounts(record.plan),
      files: queuedFilesOf(record.plan),
    };
  }

  private emitList(): void {
    this.deps.onList(this.list());
  }

  private post(message: ChannelMessage): void {
    try {
      this.deps.channel?.postMessage(message);
    } catch {
      // Another tab missing one message only delays its list.
    }
  }

  private async reload(): Promise<void> {
    const stored = await this.deps.db.uploads.toArray();
    for (const [index, record] of stored.entries()) {
      if (!isLegacyRecord(record)) continue;
      stored[index] = upgradeLegacyRecord(record, this.deps.randomId);
      await this.deps.db.uploads.put(stored[index]);
    }
    this.records.clear();
    for (const record of stored) this.records.set(record.id, record);
    for (const id of [...this.live.keys()]) if (!this.records.has(id)) this.live.delete(id);
    this.emitList();
  }

  private async onChannel(message: ChannelMessage): Promise<void> {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'progress') {
      if (this.running?.id === message.progress.id) return;
      const record = await this.deps.db.uploads.get(message.progress.id);
      if (!record) return;
      this.records.set(record.id, record);
      if (message.progress.phase !== 'failed') this.elsewhere.add(record.id);
      this.live.set(record.id, message.progress);
      this.emitList();
    } else if (message.type === 'changed') {
      const record = await this.deps.db.uploads.get(message.id);
      if (record) this.records.set(record.id, record);
      else {
        this.records.delete(message.id);
        this.elsewhere.delete(message.id);
      }
      this.live.delete(message.id);
      this.emitList();
      void this.pump.trigger();
    } else if (message.type === 'cancel' && this.running?.id === message.id) {
      await this.cancel(message.id);
    }
  }

  private async save(id: string, changes: Partial<UploadRecord>): Promise<void> {
    const update = { ...changes, updatedAt: this.deps.now() };
    await this.deps.db.uploads.update(id, update);
    const record = this.records.get(id);
    if (record) this.records.set(id, { ...record, ...update });
  }

  /** Removes an upload everywhere; with `cancelServer` its transaction is cancelled too. */
  private async forget(id: string, cancelServer: boolean): Promise<void> {
    const { db } = this.deps;
    const record = await db.uploads.get(id);
    if (cancelServer && record?.transaction) {
      await this.deps.http
        .call({ method: 'POST', path: pushPaths.cancel(record.transaction) })
        .catch(() => undefined);
    }
    await db.transaction(
      'rw',
      [db.uploads, db.uploadBlobs, db.uploadChunks, db.stagedChunks],
      async () => {
        const rows = await db.uploadBlobs.where('uploadId').equals(id).toArray();
        for (const row of rows) if (row.fileId) await deleteStagedFile(db, row.fileId);
        await db.uploads.delete(id);
        await db.uploadBlobs.where('uploadId').equals(id).delete();
        await db.uploadChunks.where('uploadId').equals(id).delete();
      },
    );
    this.records.delete(id);
    this.live.delete(id);
    this.elsewhere.delete(id);
    this.post({ type: 'changed', id });
    this.emitList();
  }

  /** One round: the oldest upload not failed nor run by another tab, until none is left. */
  private async round(): Promise<void> {
    for (;;) {
      const next = [...this.records.values()]
        .filter((r) => r.phase !== 'failed' && !this.elsewhere.has(r.id))
        .sort((a, b) => a.createdAt - b.createdAt)[0];
      if (!next) return;
      const ran = await this.tryRun(next.id);
      if (!ran) {
        this.elsewhere.add(next.id);
        this.watchRelease(next.id);
        this.emitList();
      }
    }
  }

  private tryRun(id: string): Promise<boolean> {
    const { locks } = this.deps;
    if (!locks) return this.run(id).then(() => true);
    return locks.request(`${LOCK_PREFIX}${id}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await this.run(id);
      return true;
    });
  }

  /** Picks an upload up again when the tab running it lets go of it. */
  private watchRelease(id: string): void {
    const { locks } = this.deps;
    if (!locks) return;
    void locks
      .request(`${LOCK_PREFIX}${id}`, {}, () => undefined)
      .then(async () => {
        this.elsewhere.delete(id);
        this.live.delete(id);
        const record = await this.deps.db.uploads.get(id);
        if (record) this.records.set(id, record);
        else this.records.delete(id);
        this.emitList();
        void this.pump.trigger();
      })
      .catch(() => undefined);
  }

  private async run(id: string): Promise<void> {
    const record = await this.deps.db.uploads.get(id);
    if (!record || record.phase === 'failed') {
      if (record) this.records.set(id, record);
      else this.records.delete(id);
      return;
    }
    const controller = new AbortController();
    let resolveDone!: () => void;
    const running: Running = {
      id,
      controller,
      cancelled: false,
      done: new Promise<void>((resolve) => {
        resolveDone = resolve;
      }),
    };
    this.running = running;
    let lastPhase: UploadPhase = record.phase;
    const tracker = new ProgressTracker({
      id,
      projectPath: record.projectPath,
      totalBytes: record.totalBytes,
      chunksTotal: uploadedFiles(record.plan).reduce((n, f) => n + chunkCount(f.size), 0),
      queuedAt: record.createdAt,
      changes: changeCounts(record.plan),
      files: queuedFilesOf(record.plan),
      now: this.deps.now,
      intervalMs: this.deps.progressIntervalMs,
      emit: (progress) => {
        if (running.cancelled) return;
        this.live.set(id, progress);
        this.post({ type: 'progress', progress });
        if (progress.phase !== lastPhase) {
          lastPhase = progress.phase;
          void this.save(id, {
            phase: progress.phase,
            error: progress.error,
            loadedBytes: progress.loadedBytes,
          }).catch(() => undefined);
        }
        this.emitList();
      },
    });
    try {
      const result = await runUpload(
        {
          ...this.deps,
          blob: (uploadId, path) => this.blob(uploadId, path),
          waitForNetwork: (attempt, signal) => this.waitForNetwork(attempt, signal),
        },
        id,
        tracker,
        controller.signal,
      );
      tracker.dispose();
      if (result.kind === 'failed') {
        tracker.setPhase('failed', { error: result.error });
        await this.save(id, { phase: 'failed', error: result.error });
        this.live.delete(id);
        this.post({ type: 'changed', id });
        this.emitList();
        this.deps.onSettled({
          kind: 'failed',
          id,
          projectPath: record.projectPath,
          error: result.error,
        });
      } else {
        await this.forget(id, false);
        this.deps.onSettled({
          kind: result.kind,
          id,
          projectPath: record.projectPath,
          project: result.project,
          ...(result.files ? { files: result.files } : {}),
        });
      }
    } catch (error) {
      tracker.dispose();
      if (running.cancelled) {
        await this.forget(id, true);
        this.deps.onSettled({ kind: 'cancelled', id, projectPath: record.projectPath });
      } else {
        const message = error instanceof Error && error.message ? error.message : String(error);
        await this.save(id, { phase: 'failed', error: message }).catch(() => undefined);
        this.live.delete(id);
        this.emitList();
        this.deps.onSettled({
          kind: 'failed',
          id,
          projectPath: record.projectPath,
          error: message,
        });
      }
    } finally {
      if (this.running === running) this.running = null;
      resolveDone();
    }
  }

  /** The bytes of a file of an upload: its staged chunks as one Blob, or the stored Blob. */
  private async blob(uploadId: string, path: string): Promise<Blob | undefined> {
    const row = await this.deps.db.uploadBlobs.get([uploadId, path]);
    if (row?.blob) return row.blob;
    return row?.fileId ? stagedFileBlob(this.deps.db, row.fileId) : undefined;
  }
}
