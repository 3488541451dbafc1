/**
 * Creating project versions (api-reference §2): the one place a project's files change.
 *
 * commitVersion is an internal service: its callers (push finish, clone, test seeding) have
 * checked permissions already. It runs inside the caller's transaction and, there, makes
 * version N+1 whole: the project_versions row, one file_history row per changed path, the
 * latest-file table (project_files), the blobs rows, the project's latest_version,
 * updated_at, disk_usage and tags, and a pending changeset per updated .gpkg/.sqlite file.
 * Either all of it is committed or none. Callers start the changeset computation once their
 * transaction has committed (startChangesetWork).
 *
 * The bytes must already be in the blob store (put by the caller), or, for a file made from a
 * diff (`recipe`, services/file-store/), the diff must be and the base's blob row exist. While
 * the transaction runs it holds the blob lock shared, so blob garbage collection (exclusive)
 * cannot delete anything it references; blobs new to the database are checked to exist in
 * the store. It also adds what the version stores to the project's stored bytes and queues
 * the arranging of its GeoPackages' whole copies (file-store/tasks.ts).
 */
import type { StatementPart, Tx } from '../db/database';
import { insertPendingChangesets } from '../db/queries/changesets';
import {
  deleteCurrentFiles,
  insertBlobRows,
  insertVersionWithRows,
  writeHistoryAndCurrentFiles,
  insertVersionRow,
  lockProjectForCommit,
  settleVersion,
} from '../db/queries/versions';
import { existingBlobKeys } from '../db/queries/blobs';
import { subscribedTo } from '../db/queries/webhooks';
import type { WebhookEvent } from '../schemas/webhook-events';
import type { BlobInsert } from '../db/queries/versions';
import type { FileChange } from '../db/schema';
import { queueChangedFiles } from './file-store/tasks';
import { parseConflictName } from './time-travel/conflict-names';
import { queueProjectEvent } from './webhooks/events';
import { recipeKey, type Recipe } from './file-store/recipe';
import { projectPathError } from '../lib/paths';
import type { VersionChangeCounts } from '../schemas/history';
import type { VersionOrigin } from '../schemas/restore';
import type { BlobStore } from '../storage/blob-store';
import { isVersionedFile } from '../schemas/protocol';

/** VERSION_COPY_DELAY's default, for callers without the configuration. */
export const DEFAULT_COPY_DELAY_MS = 60_000;

/** Tags of a project with exactly one QGIS project file (api-reference A.5). */
export const QGIS_TAGS = ['valid_qgis', 'input_use'] as const;

export function tagsFor(qgisProjectFiles: number): string[] {
  return qgisProjectFiles === 1 ? [...QGIS_TAGS] : [];
}

/** A diff file stored with a GeoPackage update. */
export interface CommitDiff {
  /** The diff's file name (as the client named it). */
  path: string;
  size: number;
  /** SHA-1 hex of the diff bytes. */
  checksum: string;
  /** Blob holding the diff. */
  blobKey: string;
}

/** A file added or updated by a version. */
export interface CommitFile {
  path: string;
  /** Bytes of the full file. */
  size: number;
  /** SHA-1 hex of the full file. */
  checksum: string;
  /** Blob (SHA-256 key) holding the full file. */
  blobKey: string;
  /** Client-side modification time (default: the version's time). */
  mtime?: Date | null;
  /** For GeoPackage updates made from a diff: the diff (change type update_diff). */
  diff?: CommitDiff | null;
  /**
   * A file made from its diff and stored as that diff (services/file-store/): `blobKey` is
   * the recipe's key, with no bytes in the blob store; `diffKey` is `diff.blobKey`.
   */
  recipe?: Recipe | null;
}

export interface CommitRemoval {
  path: string;
}

export interface CommitVersionInput {
  project: { id: string };
  /** Null for versions made by the system. */
  author: { id: number } | null;
  userAgent?: string | null;
  ip?: string | null;
  deviceId?: string | null;
  added?: CommitFile[];
  updated?: CommitFile[];
  removed?: CommitRemoval[];
  /** When the version is made (created_at, updated_at, default mtime). */
  at: Date;
  /** The version the changes are based on; when given it must be the latest (else VersionMismatchError). */
  baseVersion?: number;
  /** Where new blobs are checked to exist. */
  blobStore: Pick<BlobStore, 'stat'>;
  /** A version made by time travel: what it does (kept on the version, shown in its history). */
  origin?: VersionOrigin | null;
  /**
   * How long a GeoPackage made from a diff may wait before it is also written whole (the
   * configuration's VERSION_COPY_DELAY; services/file-store/).
   */
  copyDelayMs?: number;
  /**
   * The version's audit entry (services/audit.ts auditInsert), written with its rows: given
   * the version's number and its project's names.
   */
  audit?: (made: { version: number; scope: CommittedVersion['scope'] }) => StatementPart;
}

export interface CommittedVersion {
  versionId: number;
  /** The new version number (N+1). */
  version: number;
  projectSize: number;
  /** Bytes the version added to what the project keeps stored (its workspace's usage). */
  storedGrowth: number;
  /**
   * What the workspace's projects kept stored before the version (read once the version's
   * files were written; the allowance, services/push/quota.ts).
   */
  workspaceUsage: number;
  tags: string[];
  changes: VersionChangeCounts;
  /** The project and its workspace (for the version's audit entry). */
  scope: {
    project: { id: string; name: string; workspaceId: number };
    workspace: { id: number; name: string };
  };
}

/** The changes contradict the project's files (or are malformed); nothing was written. */
export class InvalidChangesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidChangesError';
  }
}

/** `baseVersion` is not the latest version. */
export class VersionMismatchError extends Error {
  constructor(
    readonly baseVersion: number,
    readonly latestVersion: number,
  ) {
    super(`Version mismatch: based on v${baseVersion}, latest is v${latestVersion}`);
    this.name = 'VersionMismatchError';
  }
}

/** The project does not exist or is scheduled for deletion. */
export class ProjectGoneError extends Error {
  constructor(projectId: string) {
    super(`Project ${projectId} does not exist or is scheduled for deletion`);
    this.name = 'ProjectGoneError';
  }
}

/** A blob the version references is not in the blob store. */
export class MissingBlobError extends Error {
  constructor(readonly key: string) {
    super(`Blob ${key} is not in the blob store`);
    this.name = 'MissingBlobError';
  }
}

const SHA1_RE = /^[0-9a-f]{40}$/;
const KEY_RE = /^[0-9a-f]{64}$/;

function checkFile(file: CommitFile): void {
  const problem = projectPathError(file.path);
  if (problem)
    throw new InvalidChangesError(`Invalid path ${JSON.stringify(file.path)}: ${problem}`);
  if (!Number.isSafeInteger(file.size) || file.size < 0) {
    throw new InvalidChangesError(`Invalid size of ${file.path}`);
  }
  if (!SHA1_RE.test(file.checksum))
    throw new InvalidChangesError(`Invalid checksum of ${file.path}`);
  if (!KEY_RE.test(file.blobKey)) throw new InvalidChangesError(`Invalid blob key of ${file.path}`);
  if (file.diff) {
    if (!SHA1_RE.test(file.diff.checksum) || !KEY_RE.test(file.diff.blobKey)) {
      throw new InvalidChangesError(`Invalid diff of ${file.path}`);
    }
    if (!Number.isSafeInteger(file.diff.size) || file.diff.size < 0) {
      throw new InvalidChangesError(`Invalid diff size of ${file.path}`);
    }
  }
  if (file.recipe) {
    const { baseKey, diffKey } = file.recipe;
    if (
      !file.diff ||
      diffKey !== file.diff.blobKey ||
      !KEY_RE.test(baseKey) ||
      recipeKey(file.recipe) !== file.blobKey
    ) {
      throw new InvalidChangesError(`Invalid recipe of ${file.path}`);
    }
  }
}

/**
 * Creates version N+1 of the project from the changes, in `tx` (see the module comment).
 * Added paths must not exist yet; updated and removed paths must exist; no path may appear
 * twice. An empty change set still makes a version (as in the reference).
 */
export async function commitVersion(tx: Tx, input: CommitVersionInput): Promise<CommittedVersion> {
  const added = input.added ?? [];
  const updated = input.updated ?? [];
  const removed = input.removed ?? [];
  for (const file of [...added, ...updated]) checkFile(file);
  for (const file of removed) {
    const problem = projectPathError(file.path);
    if (problem)
      throw new InvalidChangesError(`Invalid path ${JSON.stringify(file.path)}: ${problem}`);
  }
  const seen = new Set<string>();
  for (const { path } of [...added, ...updated, ...removed]) {
    if (seen.has(path)) throw new InvalidChangesError(`${path} is changed twice`);
    seen.add(path);
  }

  // The blob lock (shared), the project row, and path → blob key of the files the version
  // changes that the latest version has.
  const project = await lockProjectForCommit(
    tx,
    input.project.id,
    [...added, ...updated, ...removed].map((f) => f.path),
    ['version.created', 'conflict.recorded'] satisfies WebhookEvent[],
  );
  if (!project || project.removedAt) throw new ProjectGoneError(input.project.id);
  if (input.baseVersion !== undefined && input.baseVersion !== project.latestVersion) {
    throw new VersionMismatchError(input.baseVersion, project.latestVersion);
  }
  const existing = project.keys;
  for (const file of added) {
    if (existing.has(file.path)) throw new InvalidChangesError(`${file.path} already exists`);
  }
  for (const file of [...updated, ...removed]) {
    if (!existing.has(file.path)) throw new InvalidChangesError(`${file.path} does not exist`);
  }

  // Blob rows; blobs new to the database must be in the store, or (made from a diff) have
  // their base in the database. Stored blobs first: a recipe names its diff.
  const blobRows = new Map<string, BlobInsert>();
  const recipes = new Map<string, BlobInsert>();
  for (const file of [...added, ...updated]) {
    if (file.recipe) {
      recipes.set(file.blobKey, {
        key: file.blobKey,
        size: file.size,
        sha1: file.checksum,
        stored: false,
        baseKey: file.recipe.baseKey,
        diffKey: file.recipe.diffKey,
      });
    } else {
      blobRows.set(file.blobKey, { key: file.blobKey, size: file.size, sha1: file.checksum });
    }
    if (file.diff) {
      blobRows.set(file.diff.blobKey, {
        key: file.diff.blobKey,
        size: file.diff.size,
        sha1: file.diff.checksum,
      });
    }
  }
  if (recipes.size > 0) {
    // A base that is a latest file's blob is in the database (its history row references
    // it, and no blob is deleted while the commit holds the shared lock); so is a blob this
    // version inserts.
    const current = new Set(existing.values());
    const bases = [...new Set([...recipes.values()].map((r) => r.baseKey!))];
    const others = bases.filter(
      (key) => !current.has(key) && !blobRows.has(key) && !recipes.has(key),
    );
    const known = others.length > 0 ? await existingBlobKeys(tx, others) : new Set<string>();
    const missing = others.find((key) => !known.has(key));
    if (missing) throw new MissingBlobError(missing);
  }
  const version = project.latestVersion + 1;
  const changes: VersionChangeCounts = {
    added: added.length,
    updated: updated.filter((f) => !f.diff).length,
    updated_diff: updated.filter((f) => f.diff).length,
    removed: removed.length,
  };
  const versionValues = {
    projectId: input.project.id,
    name: version,
    authorId: input.author?.id ?? null,
    createdAt: input.at,
    userAgent: input.userAgent ?? null,
    ip: input.ip ?? null,
    deviceId: input.deviceId ?? null,
    projectSize: 0,
    changes,
    origin: input.origin ?? null,
  };
  const named = { id: input.project.id, name: project.name, workspaceId: project.workspaceId };
  const scope = {
    project: named,
    workspace: { id: project.workspaceId, name: project.workspaceName },
  };

  const historyRow = (file: CommitFile, change: FileChange) => ({
    projectId: input.project.id,
    versionName: version,
    path: file.path,
    change,
    size: file.size,
    checksum: file.checksum,
    blobKey: file.blobKey,
    mtime: file.mtime ?? input.at,
    diff: file.diff
      ? {
          path: file.diff.path,
          size: file.diff.size,
          checksum: file.diff.checksum,
          blob_key: file.diff.blobKey,
        }
      : null,
  });
  const historyRows = [
    ...added.map((f) => historyRow(f, 'create')),
    ...updated.map((f) => historyRow(f, f.diff ? 'update_diff' : 'update')),
    ...removed.map((f) => ({
      projectId: input.project.id,
      versionName: version,
      path: f.path,
      change: 'delete' as const,
      size: 0,
      checksum: null,
      blobKey: null,
      mtime: null,
      diff: null,
    })),
  ];
  const currentRows = [...added, ...updated].map((f) => ({
    projectId: input.project.id,
    path: f.path,
    size: f.size,
    checksum: f.checksum,
    mtime: f.mtime ?? input.at,
    blobKey: f.blobKey,
  }));
  // GeoPackage / SQLite updates get a row-level changeset, computed after the commit
  // (services/changesets.ts) against the file's previous bytes.
  const changesetRows = updated
    .filter((f) => isVersionedFile(f.path))
    .map((f) => ({
      projectId: input.project.id,
      path: f.path,
      oldBlobKey: existing.get(f.path)!,
      newBlobKey: f.blobKey,
      createdAt: input.at,
    }));
  // The stored rows before the recipes that name them (a foreign key checked at the
  // statement's end).
  const blobInserts = [
    ...blobRows.values(),
    ...[...recipes.values()].filter((r) => !blobRows.has(r.key)),
  ];

  // Removed paths go; then the version's rows: the blobs, the version, its changesets, the
  // history rows and the added and updated paths' latest rows (an updated path's row
  // replaced), and its audit entry, in one statement when they fit (else one by one).
  await deleteCurrentFiles(
    tx,
    input.project.id,
    removed.map((f) => f.path),
  );
  const audit = input.audit?.({ version, scope });
  const made = await insertVersionWithRows(tx, {
    blobs: blobInserts,
    at: input.at,
    version: versionValues,
    changesets: changesetRows,
    history: historyRows,
    current: currentRows,
    also: audit ? [audit] : [],
  });
  let versionId: number;
  let newKeys: string[];
  if (made) {
    ({ versionId, newKeys } = made);
  } else {
    newKeys = await insertBlobRows(tx, blobInserts, input.at);
    versionId = await insertVersionRow(tx, versionValues);
    await insertPendingChangesets(
      tx,
      changesetRows.map((row) => ({ ...row, versionId })),
    );
    await writeHistoryAndCurrentFiles(
      tx,
      historyRows.map((row) => ({ ...row, versionId })),
      currentRows,
    );
    if (audit) await tx.execute(audit);
  }
  for (const key of newKeys) {
    if (!blobRows.has(key)) continue;
    if (!(await input.blobStore.stat(key))) throw new MissingBlobError(key);
  }

  // Versioned files get their whole copies arranged in the background (file-store/tasks.ts).
  await queueChangedFiles(
    tx,
    input.project.id,
    [
      ...added.map((f) => ({ file: f, added: true })),
      ...updated.map((f) => ({ file: f, added: false })),
    ].map(({ file: f, added: isAdded }) => ({
      path: f.path,
      blobKey: f.blobKey,
      size: f.size,
      madeFromDiff: Boolean(f.recipe),
      added: isAdded,
    })),
    input.at,
    input.copyDelayMs ?? DEFAULT_COPY_DELAY_MS,
  );

  // The sizes, what the project keeps stored (the blobs its history did not reference
  // before), the project's latest version and tags.
  const totals = await settleVersion(tx, {
    projectId: input.project.id,
    versionId,
    newKeys: [...added, ...updated].flatMap((f) =>
      f.diff ? [f.blobKey, f.diff.blobKey] : [f.blobKey],
    ),
    latestVersion: version,
    updatedAt: input.at,
    qgisTags: QGIS_TAGS,
  });
  const tags = tagsFor(totals.qgisProjects);
  // Webhooks (services/webhooks/): queued with the version, sent once it is committed.
  const eventProject = { ...named, workspace: project.workspaceName };
  await queueProjectEvent(tx, {
    type: 'version.created',
    projectId: input.project.id,
    project: eventProject,
    hooks: subscribedTo(project.hooks, 'version.created'),
    at: input.at,
    actorId: input.author?.id ?? null,
    data: { version: `v${version}`, changes, project_size: totals.size },
  });
  const conflicts = added.filter((f) => parseConflictName(f.path) !== null).map((f) => f.path);
  if (conflicts.length > 0) {
    await queueProjectEvent(tx, {
      type: 'conflict.recorded',
      projectId: input.project.id,
      project: eventProject,
      hooks: subscribedTo(project.hooks, 'conflict.recorded'),
      at: input.at,
      actorId: input.author?.id ?? null,
      data: { version: `v${version}`, files: conflicts },
    });
  }
  return {
    versionId,
    version,
    projectSize: totals.size,
    storedGrowth: totals.charged,
    workspaceUsage: totals.workspaceUsage,
    tags,
    changes,
    scope,
  };
}
