/**
 * Imports a folder on the server's machine into a project as one new version (admin command
 * `project import`): files that are new are added, files whose bytes differ are updated,
 * identical files are left alone; with `replace`, project files missing from the folder are
 * removed. Ignored like an upload: the blacklisted folders and files, and names ending in
 * shm, wal, ~, pyc or swap.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/database';
import { listCurrentFiles } from '../db/queries/files';
import { findProjectByPath } from '../db/queries/projects';
import { projectPathError } from '../lib/paths';
import type { BlobStore } from '../storage/blob-store';
import { BLACKLIST_DIRS, BLACKLIST_FILES } from '../version';
import { AdminError } from './accounts-admin';
import { commitVersion, type CommitFile } from './versions';

const IGNORED_ENDINGS = ['shm', 'wal', '~', 'pyc', 'swap'];

function ignored(name: string, isDirectory: boolean): boolean {
  if (isDirectory) return (BLACKLIST_DIRS as readonly string[]).includes(name);
  if ((BLACKLIST_FILES as readonly string[]).includes(name)) return true;
  return IGNORED_ENDINGS.some((ending) => name.endsWith(ending));
}

async function* walk(root: string, relative = ''): AsyncGenerator<string> {
  const entries = await fsp.readdir(path.join(root, relative), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isSymbolicLink() || ignored(entry.name, entry.isDirectory())) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(root, child);
    else if (entry.isFile()) yield child;
  }
}

export interface ImportResult {
  version: number | null;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
}

export async function importFolder(
  database: Database,
  blobStore: BlobStore,
  input: { workspace: string; project: string; folder: string; replace: boolean; at?: Date },
): Promise<ImportResult> {
  const folder = path.resolve(input.folder);
  const stat = await fsp.stat(folder).catch(() => null);
  if (!stat?.isDirectory()) throw new AdminError(`${folder} is not a folder`);

  const found = await findProjectByPath(database.db, input.workspace, input.project, null);
  if (!found) throw new AdminError(`Workspace "${input.workspace}" does not exist`);
  const project = found.project;
  if (!project || project.removedAt) {
    throw new AdminError(`Project "${input.workspace}/${input.project}" does not exist`);
  }

  const current = new Map(
    (await listCurrentFiles(database.db, project.id)).map((file) => [file.path, file]),
  );
  const added: CommitFile[] = [];
  const updated: CommitFile[] = [];
  const seen = new Set<string>();
  let unchanged = 0;
  for await (const relative of walk(folder)) {
    const problem = projectPathError(relative);
    if (problem) throw new AdminError(`Cannot import "${relative}": ${problem}`);
    const file = path.join(folder, ...relative.split('/'));
    const { mtime } = await fsp.stat(file);
    const blob = await blobStore.put(fs.createReadStream(file));
    seen.add(relative);
    const entry: CommitFile = {
      path: relative,
      size: blob.size,
      checksum: blob.sha1,
      blobKey: blob.key,
      mtime,
    };
    const existing = current.get(relative);
    if (!existing) added.push(entry);
    else if (existing.checksum !== blob.sha1) updated.push(entry);
    else unchanged++;
  }
  const removed = input.replace
    ? [...current.keys()].filter((p) => !seen.has(p)).map((p) => ({ path: p }))
    : [];

  if (added.length + updated.length + removed.length === 0) {
    return { version: null, added: 0, updated: 0, removed: 0, unchanged };
  }
  const committed = await database.db.transaction((tx) =>
    commitVersion(tx, {
      project: { id: project.id },
      author: null,
      userAgent: 'waymark-admin/import',
      added,
      updated,
      removed,
      at: input.at ?? new Date(),
      baseVersion: project.latestVersion,
      blobStore,
    }),
  );
  return {
    version: committed.version,
    added: added.length,
    updated: updated.length,
    removed: removed.length,
    unchanged,
  };
}
