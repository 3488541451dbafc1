/**
 * Project details (api-reference A.5): GET /v1/project/{namespace}/{name} in its three modes
 * (latest, `version=vN`, `since=vN`) and GET /v1/project/by_uuid/{id}. The latest file list
 * is one query, however many files the project has.
 */
import type { AppContext } from '../context';
import {
  listCurrentFiles,
  listFilesAtVersion,
  listHistorySince,
  findVersion,
  type FileRow,
  type HistoryEntryRow,
  type StoredDiff,
} from '../db/queries/files';
import { listProjectMembers, listUploadIds } from '../db/queries/projects';
import type { FileChange, User } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { isQgisProjectFile } from '../lib/paths';
import { isoZ } from '../lib/time';
import { projectFor, type ProjectAccess, type ProjectRef } from './permissions';
import { accessView, projectSummary } from './projects';
import { tagsFor } from './versions';
import type {
  FileDiff,
  ProjectAnswer,
  ProjectDetail,
  ProjectFile,
  ProjectQuery,
} from '../schemas/projects';
import { isVersionedFile } from '../schemas/protocol';

export type { ProjectDetail, ProjectQuery };

export const VERSION_NOT_FOUND = 'Project at requested version does not exist';
export const SINCE_AND_VERSION = "Parameters 'since' and 'version' are mutually exclusive";

/** A history item of the `since` mode. */
type HistoryItem = NonNullable<ProjectFile['history']>[string];

/** The keys every mode of the answer has. */
type DetailBase = Omit<
  ProjectAnswer,
  'files' | 'workspace_id' | 'public' | 'removed_at' | 'locked_until'
>;

/** `v12` → 12; '' or undefined → null. (The route's schema allows only `^$|^v\d+$`.) */
export function parseVersionName(text: string | undefined): number | null {
  if (text === undefined || text === '') return null;
  const n = Number(text.replace(/^v/, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw notFound(VERSION_NOT_FOUND);
  return n;
}

function diffView(diff: StoredDiff | null): FileDiff | undefined {
  return diff ? { path: diff.path, size: diff.size, checksum: diff.checksum } : undefined;
}

function fileView(row: FileRow): ProjectFile {
  const view: ProjectFile = {
    path: row.path,
    size: row.size,
    checksum: row.checksum,
    mtime: isoZ(row.mtime),
  };
  const diff = row.change === 'update_diff' ? diffView(row.diff) : undefined;
  if (diff) view.diff = diff;
  return view;
}

const PUBLIC_CHANGE: Record<FileChange, HistoryItem['change']> = {
  create: 'added',
  update: 'updated',
  update_diff: 'updated',
  delete: 'removed',
};

async function base(ctx: AppContext, access: ProjectAccess): Promise<DetailBase> {
  const db = ctx.database.db;
  const { project } = access;
  const [members, uploads] = await Promise.all([
    listProjectMembers(db, [project.id]),
    listUploadIds(db, project.id),
  ]);
  return {
    ...projectSummary(project, access.workspace.name, access.permissions),
    uploads,
    role: access.role,
    access: accessView(members, project.public),
  };
}

function latest(access: ProjectAccess, detail: DetailBase, files: ProjectDetail['files']) {
  return {
    ...detail,
    workspace_id: access.workspace.id,
    public: access.project.public,
    removed_at: null,
    locked_until: isoZ(access.project.lockedUntil),
    files,
  } satisfies ProjectDetail;
}

/** The latest ProjectDetail of a project the caller may read (already checked). */
export async function projectDetail(
  ctx: AppContext,
  access: ProjectAccess,
): Promise<ProjectDetail> {
  const [detail, files] = await Promise.all([
    base(ctx, access),
    listCurrentFiles(ctx.database.db, access.project.id),
  ]);
  return latest(access, detail, files.map(fileView));
}

/**
 * History items of one versioned file from `since` on, newest first, up to and including
 * the most recent added or removed change.
 */
function historyOf(rows: HistoryEntryRow[]): Record<string, HistoryItem> {
  const history: Record<string, HistoryItem> = {};
  for (const row of rows) {
    const item: HistoryItem = {
      path: row.path,
      size: row.size,
      checksum: row.checksum,
      change: PUBLIC_CHANGE[row.change],
    };
    const diff = row.change === 'update_diff' ? diffView(row.diff) : undefined;
    if (diff) item.diff = diff;
    history[`v${row.versionName}`] = item;
    if (row.change === 'create' || row.change === 'delete') break;
  }
  return history;
}

async function sinceFiles(
  ctx: AppContext,
  projectId: string,
  since: number,
): Promise<ProjectFile[]> {
  const db = ctx.database.db;
  const files = await listCurrentFiles(db, projectId);
  const versioned = files.filter((f) => isVersionedFile(f.path)).map((f) => f.path);
  const entries = await listHistorySince(db, projectId, versioned, since);
  const byPath = new Map<string, HistoryEntryRow[]>();
  for (const entry of entries) {
    const list = byPath.get(entry.path) ?? [];
    list.push(entry);
    byPath.set(entry.path, list);
  }
  return files.map((row) => {
    const diff = row.change === 'update_diff' ? diffView(row.diff) : undefined;
    return {
      path: row.path,
      checksum: row.checksum,
      size: row.size,
      mtime: row.mtime ? row.mtime.toISOString() : null,
      location: `v${row.versionName}/${row.path}`,
      diff: diff ? { ...diff, location: `v${row.versionName}/${diff.path}` } : null,
      history: isVersionedFile(row.path) ? historyOf(byPath.get(row.path) ?? []) : {},
    };
  });
}

/** GET /v1/project/{namespace}/{name} and GET /v1/project/by_uuid/{id}. */
export async function getProject(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: ProjectQuery = {},
): Promise<ProjectAnswer> {
  const hasSince = query.since !== undefined && query.since !== '';
  const hasVersion = query.version !== undefined && query.version !== '';
  if (hasSince && hasVersion) throw badRequest(SINCE_AND_VERSION);
  const access = await projectFor(ctx, caller, ref, 'read');

  if (hasVersion) {
    const name = parseVersionName(query.version)!;
    const version = await findVersion(ctx.database.db, access.project.id, name);
    if (!version) throw notFound(VERSION_NOT_FOUND);
    const [detail, files] = await Promise.all([
      base(ctx, access),
      listFilesAtVersion(ctx.database.db, access.project.id, name),
    ]);
    return {
      ...detail,
      version: `v${name}`,
      updated: isoZ(version.createdAt),
      disk_usage: version.projectSize,
      tags: tagsFor(files.filter((f) => isQgisProjectFile(f.path)).length),
      files: files.map(fileView),
    };
  }
  if (hasSince) {
    const since = parseVersionName(query.since)!;
    const [detail, files] = await Promise.all([
      base(ctx, access),
      sinceFiles(ctx, access.project.id, since),
    ]);
    return latest(access, detail, files);
  }
  return projectDetail(ctx, access);
}
