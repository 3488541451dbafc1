/** The time-travel routes of the server (server/src/schemas/compare.ts, restore.ts, conflicts.ts). */

function project(namespace: string, name: string): string {
  return `${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

export const comparePath = (namespace: string, name: string) =>
  `/app/project/compare/${project(namespace, name)}`;
export const compareRowsPath = (namespace: string, name: string) =>
  `${comparePath(namespace, name)}/rows`;
export const restoreVersionPath = (namespace: string, name: string) =>
  `/app/project/restore/${project(namespace, name)}`;
export const restoreFilePath = (namespace: string, name: string) =>
  `/app/project/restore-file/${project(namespace, name)}`;
export const conflictsPath = (namespace: string, name: string) =>
  `/app/project/conflicts/${project(namespace, name)}`;
export const editConflictPath = (namespace: string, name: string) =>
  `${conflictsPath(namespace, name)}/edit`;
export const resolveConflictPath = (namespace: string, name: string) =>
  `${conflictsPath(namespace, name)}/resolve`;
export const conflictRowsPath = (namespace: string, name: string) =>
  `${conflictsPath(namespace, name)}/rows`;
