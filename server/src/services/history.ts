/**
 * A project's history (api-reference A.6; shapes in docs/decisions/0039-history-api.md): the
 * versions list, one version's detail, one file's history, and a file's row-level changeset
 * in a version. Everything needs read access to the project.
 */
import type { AppContext } from '../context';
import {
  findChangeset,
  listChangesetSummaries,
  type ChangesetSummaryRow,
} from '../db/queries/changesets';
import { findVersion } from '../db/queries/files';
import {
  findVersionFileChange,
  findVersionInfo,
  listPathHistory,
  listVersionChanges,
  listVersionsPage,
  type FileChangeRow,
  type VersionInfoRow,
} from '../db/queries/history';
import type { User } from '../db/schema';
import { badRequest, HttpProblem, notFound } from '../errors';
import { assertPageExists, pageWindow } from '../lib/pagination';
import { isoZ } from '../lib/time';
import { projectFor, type ProjectAccess, type ProjectRef } from './permissions';
import type {
  ChangesetState,
  FileChange,
  FileHistory,
  VersionChangeCounts,
  VersionDetail,
  VersionListItem,
} from '../schemas/history';
import { isVersionedFile, versionNumber as numberOfVersion } from '../schemas/protocol';

export const DIFF_NOT_FOUND = 'Diff not found';
export const CHANGES_PENDING = 'Changes are being calculated';
export const fileNotFound = (path: string) => `File ${path} not found`;
export const versionNotFound = (version: number, access: ProjectAccess) =>
  `Version v${version} in project ${access.workspace.name}/${access.project.name} not found`;

/** A version of the history answers, with the changes of its kind (counts or files). */
type VersionView<Changes> = Omit<VersionListItem, 'changes'> & { changes: Changes };

/** `vN` (as the routes' schemas allow) to N; 400 for anything else. */
export function versionNumber(text: string): number {
  const n = numberOfVersion(text);
  if (!Number.isSafeInteger(n)) throw badRequest(`Invalid version ${text}`);
  return n;
}

function changesetView(row: ChangesetSummaryRow): ChangesetState {
  const view: ChangesetState = { status: row.status, size: row.status === 'done' ? row.size : 0 };
  if (row.status === 'done') view.summary = (row.summary as ChangesetState['summary']) ?? [];
  if (row.status === 'error' && row.error) view.error = row.error;
  return view;
}

async function changesetsByVersion(
  ctx: AppContext,
  versionIds: number[],
): Promise<Map<number, Record<string, ChangesetState>>> {
  const byVersion = new Map<number, Record<string, ChangesetState>>();
  for (const row of await listChangesetSummaries(ctx.database.db, versionIds)) {
    const entry = byVersion.get(row.versionId) ?? {};
    entry[row.path] = changesetView(row);
    byVersion.set(row.versionId, entry);
  }
  return byVersion;
}

function baseView<Changes>(
  access: ProjectAccess,
  row: VersionInfoRow,
  changes: Changes,
  changesets: Record<string, ChangesetState>,
): VersionView<Changes> {
  const name = `v${row.name}`;
  const view: VersionView<Changes> = {
    id: name,
    name,
    created: isoZ(row.createdAt),
    project_name: access.project.name,
    namespace: access.workspace.name,
    project_size: row.projectSize,
    user_agent: row.userAgent,
    changes,
    changesets,
  };
  if (row.author !== null) view.author = row.author;
  if (row.origin) view.origin = row.origin;
  return view;
}

function counts(stored: Partial<VersionChangeCounts> | null): VersionChangeCounts {
  return {
    added: stored?.added ?? 0,
    updated: stored?.updated ?? 0,
    updated_diff: stored?.updated_diff ?? 0,
    removed: stored?.removed ?? 0,
  };
}

export interface VersionsQuery {
  page: number;
  perPage: number;
  descending?: boolean;
}

/** GET /v1/project/versions/paginated/{namespace}/{name}. */
export async function listVersions(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: VersionsQuery,
): Promise<{ count: number; versions: VersionView<VersionChangeCounts>[] }> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const window = pageWindow({ page: query.page, perPage: query.perPage });
  const { rows, count } = await listVersionsPage(ctx.database.db, access.project.id, {
    ...window,
    descending: query.descending ?? true,
  });
  assertPageExists(query.page, rows.length);
  const changesets = await changesetsByVersion(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    count,
    versions: rows.map((row) =>
      baseView(access, row, counts(row.changes), changesets.get(row.id) ?? {}),
    ),
  };
}

const CHANGE_NAMES = {
  create: 'added',
  update: 'updated',
  update_diff: 'updated',
  delete: 'removed',
} as const;

function fileChangeView(row: FileChangeRow): FileChange {
  const view: FileChange = {
    path: row.path,
    size: row.size,
    checksum: row.checksum,
    mtime: isoZ(row.mtime),
    change: CHANGE_NAMES[row.change],
    expiration: null,
  };
  if (row.diff)
    view.diff = { path: row.diff.path, size: row.diff.size, checksum: row.diff.checksum };
  return view;
}

/** GET /v1/project/version/{project_id}/{version} and …/{namespace}/{name}/{version}. */
export async function getVersion(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  version: string,
): Promise<VersionDetail> {
  const name = versionNumber(version);
  const access = await projectFor(ctx, caller, ref, 'read');
  const row = await findVersionInfo(ctx.database.db, access.project.id, name);
  if (!row) throw notFound(versionNotFound(name, access));
  const [files, changesets] = await Promise.all([
    listVersionChanges(ctx.database.db, access.project.id, row.id),
    changesetsByVersion(ctx, [row.id]),
  ]);
  const changes = { added: [], updated: [], removed: [] } as VersionDetail['changes'];
  for (const file of files) changes[CHANGE_NAMES[file.change]].push(fileChangeView(file));
  return baseView(access, row, changes, changesets.get(row.id) ?? {});
}

/** GET /v1/resource/history/{namespace}/{name}?path=. */
export async function getFileHistory(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  path: string,
): Promise<FileHistory> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const rows = await listPathHistory(ctx.database.db, access.project.id, path);
  if (rows.length === 0) throw notFound(fileNotFound(path));
  // A removal shows the state the file had just before.
  let previous: FileChangeRow | null = null;
  const items: [string, FileChange][] = [];
  for (const row of rows) {
    const shown =
      row.change === 'delete' && previous
        ? { ...row, size: previous.size, checksum: previous.checksum, mtime: previous.mtime }
        : row;
    items.push([`v${row.versionName}`, fileChangeView(shown)]);
    if (row.change !== 'delete') previous = row;
  }
  const latest = fileChangeView(previous ?? rows[rows.length - 1]!);
  const view: FileHistory = {
    path,
    size: latest.size,
    checksum: latest.checksum,
    mtime: latest.mtime,
    history: Object.fromEntries(items.reverse()),
  };
  if (latest.diff) view.diff = latest.diff;
  return view;
}

/** What the changeset call answers: the list, or that it is still being calculated. */
export type ChangesetAnswer = { status: 'done'; json: string } | { status: 'pending' };

/** GET /v1/resource/changesets/{namespace}/{name}/{version}?path=. */
export async function getChangeset(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  version: string,
  path: string,
): Promise<ChangesetAnswer> {
  const name = versionNumber(version);
  const access = await projectFor(ctx, caller, ref, 'read');
  const db = ctx.database.db;
  const row = await findVersion(db, access.project.id, name);
  if (!row) throw notFound(versionNotFound(name, access));
  const file = await findVersionFileChange(db, access.project.id, row.id, path);
  if (!file) throw notFound(fileNotFound(path));
  if (!isVersionedFile(path) || (file.change !== 'update' && file.change !== 'update_diff')) {
    throw notFound(DIFF_NOT_FOUND);
  }
  const changeset = await findChangeset(db, row.id, path);
  if (!changeset) throw notFound(DIFF_NOT_FOUND);
  if (changeset.status === 'pending') return { status: 'pending' };
  if (changeset.status === 'error') throw new HttpProblem(422, changeset.error);
  return { status: 'done', json: changeset.changesJson ?? '[]' };
}
