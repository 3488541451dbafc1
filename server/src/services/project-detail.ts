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
import type { FileChange, ProjectRole, User } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { isQgisProjectFile, isVersionedFile } from '../lib/paths';
import { isoZ } from '../lib/time';
import { projectFor, type ProjectAccess, type ProjectRef } from './permissions';
import {
  accessView,
  projectSummary,
  type ProjectAccessView,
  type ProjectSummary,
} from './projects';
import { tagsFor } from './versions';

export const VERSION_NOT_FOUND = 'Project at requested version does not exist';
export const SINCE_AND_VERSION = "Parameters 'since' and 'version' are mutually exclusive";

export interface FileDiffView {
  path: string;
  size: number;
  checksum: string;
}

export interface ProjectFileView {
  path: string;
  size: number;
  checksum: string;
  mtime: string | null;
  diff?: FileDiffView;
}

export interface HistoryItemView {
  path: string;
  size: number;
  checksum: string | null;
  change: 'added' | 'updated' | 'removed';
  diff?: FileDiffView;
}

/** File entries of the `since` mode: the reference's raw records (api-reference A.5). */
export interface SinceFileView {
  path: string;
  checksum: string;
  size: number;
  mtime: string | null;
  location: string;
  diff: (FileDiffView & { location: string }) | null;
  history: Record<string, HistoryItemView>;
}

interface DetailBase extends ProjectSummary {
  uploads: string[];
  role: ProjectRole | null;
  access: ProjectAccessView;
}

/** The latest project (also the answer of PUT settings, push and finish). */
export interface ProjectDetail extends DetailBase {
  workspace_id: number;
  public: boolean;
  removed_at: null;
  locked_until: string | null;
  files: ProjectFileView[] | SinceFileView[];
}

/** The project as of one version (no workspace_id, public, removed_at, locked_until). */
export interface ProjectAtVersion extends DetailBase {
  files: ProjectFileView[];
}

export interface ProjectQuery {
  /** `vN`, or '' / undefined for the latest. */
  version?: string;
  since?: string;
}

/** `v12` → 12; '' or undefined → null. (The route's schema allows only `^$|^v\d+$`.) */
export function parseVersionName(text: string | undefined): number | null {
  if (text === undefined || text === '') return null;
  const n = Number(text.replace(/^v/, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw notFound(VERSION_NOT_FOUND);
  return n;
}

function diffView(diff: StoredDiff | null): FileDiffView | undefined {
  return diff ? { path: diff.path, size: diff.size, checksum: diff.checksum } : undefined;
}

function fileView(row: FileRow): ProjectFileView {
  const view: ProjectFileView = {
    path: row.path,
    size: row.size,
    checksum: row.checksum,
    mtime: isoZ(row.mtime),
  };
  const diff = row.change === 'update_diff' ? diffView(row.diff) : undefined;
  if (diff) view.diff = diff;
  return view;
}

const PUBLIC_CHANGE: Record<FileChange, HistoryItemView['change']> = {
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
function historyOf(rows: HistoryEntryRow[]): Record<string, HistoryItemView> {
  const history: Record<string, HistoryItemView> = {};
  for (const row of rows) {
    const item: HistoryItemView = {
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
): Promise<SinceFileView[]> {
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
): Promise<ProjectDetail | ProjectAtVersion> {
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
