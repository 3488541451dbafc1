/**
 * Pending uploads, one per project ('namespace/name'), kept in memory for the tab's life: the
 * files chosen or deleted, their analysis (SHA-1 in the hashing worker, never on the UI thread)
 * and, once 'Update Changes' handed them to the upload engine, the engine's upload id. The
 * engine keeps what it needs to resume on its own; this is only the editing state before that.
 */
import type { HashOptions } from '@/lib/hashWorker';
import type { ProjectDetail, ProjectFile } from '@contract/projects';
import type { EnqueueOptions, QueuedBytes } from '../../model/engineApi';
import type { Blacklists } from '../../model/ignore';
import {
  applyPlacement,
  computeDiff,
  filesOfProject,
  hasChanges,
  stageDeletion,
  stagedIds,
  unanalysed,
  withChecksum,
  type PendingFile,
  type PendingFiles,
} from '../../model/pending';
import { createPushPlan, type PushPlan } from '../../model/plan';
import { isEmptyChanges, rebaseChanges, versionedConflicts } from '../../model/rebase';
import { placeSelection, type ChosenFile } from '../../model/selection';

export interface FileProgress {
  loaded: number;
  total: number;
}

export interface PendingUpload {
  key: string;
  projectId: string;
  namespace: string;
  name: string;
  /** The version the user was looking at when the first change was made. */
  baseVersion: string;
  baseFiles: readonly ProjectFile[];
  files: PendingFiles;
  /** Project paths left out by the ignore rules. */
  ignored: readonly string[];
  /** Files being analysed, by path. */
  analysing: Readonly<Record<string, FileProgress>>;
  /** Reading the latest version and handing over to the engine. */
  starting: boolean;
  /** The engine's upload once started. */
  uploadId: string | null;
  /**
   * The base holds changes of uploads queued for the project and not landed yet: these
   * changes go on top of them, as the next version, rebased when sent like an upload queued
   * offline (docs/decisions/0122-changes-on-top.md).
   */
  queuedBelow: boolean;
}

export interface PendingUploadsDeps {
  sha1(file: Blob, options?: HashOptions): Promise<string>;
  fetchLatest(namespace: string, name: string): Promise<ProjectDetail>;
  enqueue(
    plan: PushPlan,
    files: Map<string, QueuedBytes>,
    options?: EnqueueOptions,
  ): Promise<string>;
  /** Whether the browser has a connection (navigator.onLine): without, uploads are queued. */
  isOnline(): boolean;
  /** Whether `error` (from fetchLatest) means the server could not be reached. */
  isNetworkError(error: unknown): boolean;
  /** Removes staged copies never handed to the engine (src/db/stagedChunks.ts). */
  dropStaged(fileIds: string[]): void;
  /** Why `bytes` more cannot be stored on this device, or null when they can (or unknown). */
  spaceRefusal(bytes: number): Promise<string | null>;
  /** Makes the plan's UUIDs (push id, chunk ids). */
  randomId(): string;
  cancel(id: string): Promise<void>;
  /** Tells the user something (the spec's toasts). */
  notify(kind: 'info' | 'error', message: string): void;
}

export type PrepareResult =
  | { kind: 'conflict'; paths: string[]; latest: ProjectDetail }
  | { kind: 'started' }
  /** No connection: queued against the version saved on this device, sent when online. */
  | { kind: 'queued' }
  | { kind: 'empty' }
  | { kind: 'failed' };

export const projectKey = (namespace: string, name: string) => `${namespace}/${name}`;

export function createPendingUploads(
  deps: PendingUploadsDeps,
  texts: {
    noChanges: string;
    cancelled: string;
  },
) {
  let state: ReadonlyMap<string, PendingUpload> = new Map();
  const listeners = new Set<() => void>();
  const analyses = new Map<string, AbortController>();
  // Outcomes can arrive before enqueue resolves (a removals-only push answers at once).
  const settledIds = new Set<string>();

  function set(key: string, next: PendingUpload | null): void {
    const copy = new Map(state);
    if (next) copy.set(key, next);
    else copy.delete(key);
    state = copy;
    for (const listener of listeners) listener();
  }

  function update(key: string, change: (upload: PendingUpload) => PendingUpload): void {
    const current = state.get(key);
    if (current) set(key, change(current));
  }

  /**
   * The pending upload of `project` (its files: the base of new changes), made when there is
   * none or the last one was handed to the engine (changes on top of queued ones).
   */
  function start(project: ProjectDetail, queuedBelow: boolean): PendingUpload {
    const key = projectKey(project.namespace, project.name);
    const existing = state.get(key);
    if (existing && existing.uploadId === null) return existing;
    // Handed over: the engine holds its files now (its staged copies must stay).
    if (existing) set(key, null);
    return {
      key,
      projectId: project.id,
      namespace: project.namespace,
      name: project.name,
      baseVersion: project.version,
      baseFiles: project.files,
      files: filesOfProject(project.files),
      ignored: [],
      analysing: {},
      starting: false,
      uploadId: null,
      queuedBelow,
    };
  }

  /** Sets `next` and drops the staged copies of chosen files it no longer holds. */
  function replace(key: string, next: PendingUpload | null): void {
    const before = state.get(key);
    set(key, next);
    if (!before) return;
    const kept = new Set(next ? stagedIds(next.files.values()) : []);
    const gone = stagedIds(before.files.values()).filter((id) => !kept.has(id));
    if (gone.length > 0) deps.dropStaged(gone);
  }

  /**
   * Not enough space on this device for the copies of the files waiting for analysis: they are
   * taken out again (each path back as it was in the viewed version) and the user is told.
   */
  async function refusedForSpace(key: string): Promise<boolean> {
    const waiting = unanalysed(state.get(key)?.files ?? new Map());
    const refusal = await deps.spaceRefusal(waiting.reduce((sum, f) => sum + f.size, 0));
    if (!refusal) return false;
    const upload = state.get(key);
    if (upload) {
      const files = new Map(upload.files);
      const base = filesOfProject(upload.baseFiles);
      for (const file of waiting) {
        const before = base.get(file.path);
        if (before) files.set(file.path, before);
        else files.delete(file.path);
      }
      const next = { ...upload, files };
      set(key, hasChanges(computeDiff(upload.baseFiles, files)) ? next : null);
    }
    deps.notify('error', refusal);
    return true;
  }

  async function analyse(key: string): Promise<void> {
    if (analyses.has(key)) return;
    const controller = new AbortController();
    analyses.set(key, controller);
    try {
      if (await refusedForSpace(key)) return;
      for (;;) {
        const upload = state.get(key);
        if (!upload || controller.signal.aborted) return;
        const next = unanalysed(upload.files)[0];
        if (!next?.blob) break;
        const blob = next.blob;
        // The bytes read for the checksum are stored as upload chunks at once (issue 16).
        const fileId = deps.randomId();
        let checksum: string;
        try {
          checksum = await deps.sha1(blob, {
            signal: controller.signal,
            stageAs: fileId,
            onProgress: (loaded, total) =>
              update(key, (u) => ({
                ...u,
                analysing: { ...u.analysing, [next.path]: { loaded, total } },
              })),
          });
        } catch (error) {
          deps.dropStaged([fileId]);
          throw error;
        }
        let taken = false;
        update(key, (u) => {
          const file = u.files.get(next.path);
          // The file was replaced or deleted meanwhile: its checksum is not this one.
          taken = file?.blob === blob;
          const files = taken ? withChecksum(u.files, next.path, checksum, fileId) : u.files;
          const analysing = { ...u.analysing };
          delete analysing[next.path];
          return { ...u, files, analysing };
        });
        if (!taken) deps.dropStaged([fileId]);
      }
      const upload = state.get(key);
      if (upload && !hasChanges(computeDiff(upload.baseFiles, upload.files))) {
        replace(key, null);
        deps.notify('info', texts.noChanges);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      replace(key, null);
      deps.notify('error', error instanceof Error ? error.message : String(error));
    } finally {
      if (analyses.get(key) === controller) analyses.delete(key);
    }
  }

  function stopAnalysis(key: string): boolean {
    const controller = analyses.get(key);
    if (!controller) return false;
    controller.abort();
    analyses.delete(key);
    return true;
  }

  /**
   * Makes the plan against `latest` (online: the server's latest version; offline: the viewed
   * version saved on this device, with what a rebase needs) and hands it to the engine.
   */
  async function handOver(
    key: string,
    latest: { id: string; version: string; files: readonly ProjectFile[] },
    offline?: { username: string },
  ): Promise<PrepareResult> {
    const upload = state.get(key);
    if (!upload) return { kind: 'failed' };
    const diff = computeDiff(upload.baseFiles, upload.files);
    const changes = rebaseChanges(diff, latest.files);
    if (isEmptyChanges(changes)) {
      replace(key, null);
      deps.notify('info', texts.noChanges);
      return { kind: 'empty' };
    }
    const files = new Map<string, QueuedBytes>();
    const used = new Set<string>();
    for (const file of [...changes.added, ...changes.updated]) {
      const chosen: PendingFile | undefined = upload.files.get(file.path);
      if (chosen?.fileId) {
        files.set(file.path, { fileId: chosen.fileId });
        used.add(chosen.fileId);
      } else if (chosen?.blob) files.set(file.path, chosen.blob);
    }
    const plan = createPushPlan(
      { id: latest.id, namespace: upload.namespace, name: upload.name, version: latest.version },
      changes,
      deps.randomId,
    );
    const touched = new Set(
      [...changes.added, ...changes.updated, ...changes.removed].map((f) => f.path),
    );
    const options: EnqueueOptions = offline
      ? {
          offline: {
            username: offline.username,
            baseFiles: upload.baseFiles
              .filter((f) => touched.has(f.path))
              .map((f) => ({ path: f.path, size: f.size, checksum: f.checksum ?? '' })),
          },
        }
      : {};
    const id = await deps.enqueue(plan, files, options);
    // Staged copies the plan does not send (files equal to the latest copy) are not needed.
    const unused = stagedIds(upload.files.values()).filter((fileId) => !used.has(fileId));
    if (unused.length > 0) deps.dropStaged(unused);
    if (settledIds.has(id)) set(key, null);
    else update(key, (u) => ({ ...u, starting: false, uploadId: id }));
    return { kind: offline ? 'queued' : 'started' };
  }

  /** No connection: the plan is made against the viewed version saved on this device. */
  function queueOffline(key: string, username: string): Promise<PrepareResult> {
    const upload = state.get(key) as PendingUpload;
    return handOver(
      key,
      { id: upload.projectId, version: upload.baseVersion, files: upload.baseFiles },
      { username },
    );
  }

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): ReadonlyMap<string, PendingUpload> => state,
    get: (key: string): PendingUpload | undefined => state.get(key),

    /**
     * Places chosen files at `location` (or replaces everything) and analyses them. `project`
     * holds the files the changes start from: with `queuedBelow`, the files as they will be
     * once the uploads queued for the project landed.
     */
    choose(
      project: ProjectDetail,
      chosen: readonly ChosenFile[],
      location: string,
      blacklists?: Blacklists,
      queuedBelow = false,
    ): void {
      const upload = start(project, queuedBelow);
      const placement = placeSelection(chosen, location, project.name);
      const { files, ignored } = applyPlacement(upload.files, placement, blacklists);
      replace(upload.key, { ...upload, files, ignored: [...upload.ignored, ...ignored] });
      void analyse(upload.key);
    },

    /** Stages the deletion of a file or a folder (by prefix). */
    remove(project: ProjectDetail, path: string, isFolder: boolean, queuedBelow = false): void {
      const upload = start(project, queuedBelow);
      replace(upload.key, { ...upload, files: stageDeletion(upload.files, path, isFolder) });
    },

    /**
     * Undoes the pending change of one file: it is as in the base again (a deleted file comes
     * back, a chosen one goes). Without changes left the pending upload is over.
     */
    revert(key: string, path: string): void {
      const upload = state.get(key);
      if (!upload || upload.uploadId !== null || upload.starting) return;
      const files = new Map(upload.files);
      const before = filesOfProject(upload.baseFiles).get(path);
      if (before) files.set(path, before);
      else files.delete(path);
      const next = { ...upload, files };
      replace(key, hasChanges(computeDiff(upload.baseFiles, files)) ? next : null);
    },

    /**
     * 'Update Changes': reads the latest version; a versioned file changed there since the
     * viewed version is a conflict for the user to decide; otherwise hands over to the engine.
     * Without a connection the upload is queued against the viewed version and rebased when
     * it is sent (`username` names conflicted copies then).
     */
    async prepare(key: string, username = ''): Promise<PrepareResult> {
      const upload = state.get(key);
      if (!upload || upload.starting || upload.uploadId) return { kind: 'failed' };
      update(key, (u) => ({ ...u, starting: true }));
      try {
        // Offline, or on top of queued uploads: rebased when sent.
        if (!deps.isOnline() || upload.queuedBelow) return await queueOffline(key, username);
        let latest: ProjectDetail;
        try {
          latest = await deps.fetchLatest(upload.namespace, upload.name);
        } catch (error) {
          if (deps.isNetworkError(error)) return await queueOffline(key, username);
          throw error;
        }
        if (latest.version !== upload.baseVersion) {
          const diff = computeDiff(upload.baseFiles, upload.files);
          const paths = versionedConflicts(diff, upload.baseFiles, latest.files);
          if (paths.length > 0) return { kind: 'conflict', paths, latest };
        }
        return await handOver(key, latest);
      } catch (error) {
        update(key, (u) => ({ ...u, starting: false }));
        deps.notify('error', error instanceof Error ? error.message : String(error));
        return { kind: 'failed' };
      }
    },

    /** The user chose to overwrite the conflicting files: push on the latest version. */
    async overwrite(key: string, latest: ProjectDetail): Promise<PrepareResult> {
      try {
        return await handOver(key, latest);
      } catch (error) {
        update(key, (u) => ({ ...u, starting: false }));
        deps.notify('error', error instanceof Error ? error.message : String(error));
        return { kind: 'failed' };
      }
    },

    /** The user backed out of the conflict dialog: nothing is sent, the changes stay. */
    abortStart(key: string): void {
      update(key, (u) => ({ ...u, starting: false }));
    },

    /**
     * Closing the panel: discards the pending upload and cancels work in flight (analysis, or
     * the engine's upload, whose cancellation the engine reports).
     */
    discard(key: string): void {
      const upload = state.get(key);
      if (!upload) return;
      const analysing = stopAnalysis(key);
      // Handed over: the engine removes the copies it holds when it cancels.
      if (upload.uploadId) set(key, null);
      else replace(key, null);
      if (upload.uploadId) void deps.cancel(upload.uploadId);
      else if (analysing) deps.notify('error', texts.cancelled);
    },

    /** The engine settled an upload: its pending state is over. */
    settled(uploadId: string): void {
      settledIds.add(uploadId);
      for (const upload of state.values()) {
        if (upload.uploadId === uploadId) set(upload.key, null);
      }
    },
  };
}

export type PendingUploads = ReturnType<typeof createPendingUploads>;
