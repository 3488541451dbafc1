/** Everything the project-tree needs from uploads for one project, in one hook. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { notifyError } from '@/lib/notify';
import { configQueryOptions } from '@/platform/config';
import type { ProjectDetail, ProjectFile } from '@/features/projects';
import { useUploads } from '../engine';
import { NO_BLACKLISTS, type Blacklists } from '../../model/ignore';
import { changesByPath, computeDiff, type ChangeKind } from '../../model/pending';
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
  /** An upload is being started or runs: no new files now. */
  running: boolean;
  /** Files to list: the viewed version plus the added files (removed ones stay, badged). */
  files: readonly ProjectFile[];
  changes: ReadonlyMap<string, ChangeKind>;
  /** Size of each chosen file, by path (the 'new size' of an updated file). */
  chosenSizes: ReadonlyMap<string, number>;
  choose(files: ChosenFile[], location: string): void;
  remove(path: string, isFolder: boolean): void;
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
    ? { dirs: config.data.blacklist_dirs ?? [], files: config.data.blacklist_files ?? [] }
    : NO_BLACKLISTS;

  const progress =
    engineUploads.find((u) => pending?.uploadId && u.id === pending.uploadId) ??
    engineUploads.find((u) => u.projectPath === key && (isActive(u) || u.phase === 'failed'));
  const running =
    pending?.starting === true ||
    (pending?.uploadId ?? null) !== null ||
    engineUploads.some((u) => u.projectPath === key && isActive(u));

  const derived = useMemo(() => {
    if (!pending) {
      return {
        files: project.files,
        changes: new Map<string, ChangeKind>(),
        chosenSizes: new Map<string, number>(),
      };
    }
    const diff = computeDiff(pending.baseFiles, pending.files);
    const files: ProjectFile[] = [
      ...pending.baseFiles,
      ...diff.added.map((file) => ({ path: file.path, size: file.size, mtime: file.mtime })),
    ];
    const chosenSizes = new Map<string, number>();
    for (const file of pending.files.values()) if (file.blob) chosenSizes.set(file.path, file.size);
    return { files, changes: changesByPath(diff), chosenSizes };
  }, [pending, project.files]);

  return {
    key,
    pending,
    progress,
    running,
    ...derived,
    choose: (files, location) => store.choose(project, files, location, blacklists),
    remove: (path, isFolder) => store.remove(project, path, isFolder),
    refuse: (message) => notifyError(message),
    prepare: () => store.prepare(key, username),
  };
}
