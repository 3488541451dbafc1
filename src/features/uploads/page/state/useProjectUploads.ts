/** Everything the project-tree needs from uploads for one project, in one hook. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { notifyError } from '@/lib/notify';
import { MAINTENANCE_MESSAGE } from '@/api';
import { configQueryOptions } from '@/platform/config';
import { useMaintenance } from '@/platform/ping';
import type { ProjectDetail } from '@contract/projects';
import type { ListedFile } from '@/features/projects';
import { useUploads } from '../engine';
import { NO_BLACKLISTS, type Blacklists } from '../../model/ignore';
import {
  applyQueued,
  changesAgainst,
  computeDiff,
  filesOfProject,
  type ChangeKind,
} from '../../model/pending';
import { isActive } from '../../model/progressText';
import type { ChosenFile } from '../../model/selection';
import type { UploadProgress } from '../../model/types';
import { wantUploadEngine } from './engineDemand';
import { projectKey, type PendingUpload, type PendingUploads } from './pendingUploads';
import { usePendingUpload, usePendingUploads } from './usePendingUploads';

export interface ProjectUploads {
  key: string;
  pending: PendingUpload | undefined;
  /** The engine's upload of this project, if one is under way or failed. */
  progress: UploadProgress | undefined;
  /**
   * An upload is being started or runs: no new files now. Uploads that only wait for the
   * network do not count: changes go on top of them (issue 31).
   */
  running: boolean;
  /**
   * Why no change can be made or sent now (the server is read-only for maintenance: the
   * spec's read-only message), or null (issue 31: disabled with the reason, not refused on click).
   */
  blocked: string | null;
  /**
   * Files to list: the viewed version with the changes of the uploads queued for it and the
   * pending ones (removed files stay, badged).
   */
  files: readonly ListedFile[];
  changes: ReadonlyMap<string, ChangeKind>;
  /** Files with a pending change of this tab (one 'Undo change' can take back). */
  revertable: ReadonlySet<string>;
  /** Size of each chosen file, by path (the 'new size' of an updated file). */
  chosenSizes: ReadonlyMap<string, number>;
  choose(files: ChosenFile[], location: string): void;
  remove(path: string, isFolder: boolean): void;
  /** Undoes the pending change of one file. */
  revert(path: string): void;
  refuse(message: string): void;
  /** 'Update Changes' (offline: queued, named for conflicted copies with the user's name). */
  prepare(): ReturnType<PendingUploads['prepare']>;
}

export function useProjectUploads(project: ProjectDetail, username = ''): ProjectUploads {
  const store = usePendingUploads();
  const key = projectKey(project.namespace, project.name);
  const pending = usePendingUpload(key);
  const engineUploads = useUploads();
  // The upload area is shown: the shell mounts the upload center, which starts the engine (so
  // uploads of other tabs show here too).
  useEffect(() => wantUploadEngine(), []);
  const config = useQuery(configQueryOptions);
  const blacklists: Blacklists = config.data
    ? { dirs: config.data.blacklist_dirs, files: config.data.blacklist_files }
    : NO_BLACKLISTS;

  const progress =
    engineUploads.find((u) => pending?.uploadId && u.id === pending.uploadId) ??
    engineUploads.find((u) => u.projectPath === key && (isActive(u) || u.phase === 'failed'));
  const waits = (u: UploadProgress) => u.phase === 'waiting-network';
  const own = pending?.uploadId ? engineUploads.find((u) => u.id === pending.uploadId) : undefined;
  const running =
    pending?.starting === true ||
    (pending?.uploadId != null && !(own && waits(own))) ||
    engineUploads.some((u) => u.projectPath === key && isActive(u) && !waits(u));
  // The uploads queued for this project, not landed yet: their files are the base of more.
  const queued = engineUploads.filter((u) => u.projectPath === key && isActive(u));
  const queuedFiles = queued.flatMap((u) => u.files ?? []);
  // The files of the queued uploads change only with the list of them.
  const queuedKey = JSON.stringify(queuedFiles);
  const base = useMemo(
    () => ({ ...project, files: applyQueued(project.files, queuedFiles) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [project, queuedKey],
  );

  const derived = useMemo(() => {
    const final = pending ? pending.files : filesOfProject(base.files);
    const listed = pending ? pending.baseFiles : base.files;
    // Marks are against the version viewed (pending changes made on it: that version).
    const saved = pending && !pending.queuedBelow ? pending.baseFiles : project.files;
    const files = new Map<string, ListedFile>();
    for (const file of [...saved, ...listed]) files.set(file.path, file);
    for (const file of final.values()) {
      if (!files.has(file.path))
        files.set(file.path, { path: file.path, size: file.size, mtime: file.mtime });
    }
    const changes = changesAgainst(saved, final, listed);
    const chosenSizes = new Map<string, number>();
    for (const file of final.values()) {
      if (changes.get(file.path) === 'updated') chosenSizes.set(file.path, file.size);
    }
    const revertable = new Set<string>();
    if (pending) {
      const diff = computeDiff(pending.baseFiles, pending.files);
      for (const file of [...diff.added, ...diff.updated, ...diff.removed])
        revertable.add(file.path);
    }
    return { files: [...files.values()], changes, chosenSizes, revertable };
  }, [pending, base, project.files]);

  const below = queued.length > 0;
  const maintenance = useMaintenance();
  return {
    key,
    pending,
    progress,
    running,
    blocked: maintenance ? MAINTENANCE_MESSAGE : null,
    ...derived,
    choose: (files, location) => store.choose(base, files, location, blacklists, below),
    remove: (path, isFolder) => store.remove(base, path, isFolder, below),
    revert: (path) => store.revert(key, path),
    refuse: (message) => notifyError(message),
    prepare: () => store.prepare(key, username),
  };
}
