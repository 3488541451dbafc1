/**
 * POST /v1/project/clone/{namespace}/{project} (api-reference A.5): a new private project
 * with the source's latest files. Files are not copied: the new project's rows reference the
 * same blobs. Files named like EXCLUDED_CLONE_FILENAMES are left out.
 */
import type { ClientMeta } from '../auth/sessions';
import type { AppContext } from '../context';
import { actorOf, recordAudit } from './audit';
import { isUniqueViolation } from '../db/errors';
import { listCurrentFiles, type FileRow } from '../db/queries/files';
import {
  findProjectByName,
  insertProject,
  insertProjectWithInitialVersion,
  upsertProjectMembers,
  workspaceDiskUsage,
} from '../db/queries/projects';
import type { User, Workspace } from '../db/schema';
import { badRequest, HttpProblem } from '../errors';
import { baseName } from '../lib/paths';
import { PROJECT_NAME_EMPTY, projectNameError } from '../lib/validation';
import { assertSignedIn, projectFor } from './permissions';
import { creatableWorkspace, projectNameClash } from './projects';
import { commitVersion } from './versions';
import type { CloneBody } from '../schemas/projects';
import { STORAGE_LIMIT_CODE } from '../schemas/protocol';

/** Basenames never copied into a clone (the reference's default). */
export const EXCLUDED_CLONE_FILENAMES: ReadonlySet<string> = new Set(['qgis_cfg.xml']);

export const STORAGE_LIMIT_DETAIL = `You have reached a data limit (${STORAGE_LIMIT_CODE})`;

export function storageLimitHit(currentUsage: number, storageLimit: number): HttpProblem {
  return new HttpProblem(422, STORAGE_LIMIT_DETAIL, {
    extra: { code: STORAGE_LIMIT_CODE, current_usage: currentUsage, storage_limit: storageLimit },
  });
}

export async function cloneProject(
  ctx: AppContext,
  caller: User | null,
  source: { namespace: string; name: string },
  input: CloneBody,
  meta: NewProjectMeta,
): Promise<void> {
  assertSignedIn(caller);
  const from = await projectFor(ctx, caller, source, 'read');
  const db = ctx.database.db;

  const name = input.project == null ? from.project.name : input.project.trim();
  if (name === '') throw badRequest(PROJECT_NAME_EMPTY);
  const namespace = input.namespace?.trim() || from.workspace.name;
  const workspace = await creatableWorkspace(ctx, caller, namespace);
  if (name !== from.project.name) {
    const problem = projectNameError(name);
    if (problem) throw badRequest(problem);
  }
  const existing = await findProjectByName(db, workspace.id, name);
  if (existing) throw projectNameClash(existing.removedAt, ctx.now());

  const files = await cloneableFiles(ctx, from.project.id);
  const usage = await workspaceDiskUsage(db, workspace.id);
  if (usage + filesSize(files) > workspace.storage) {
    throw storageLimitHit(usage, workspace.storage);
  }
  await insertProjectWithFiles(
    ctx,
    {
      workspace,
      name,
      public: false,
      creator: caller,
      files,
      audit: { cloned_from: `${from.workspace.name}/${from.project.name}` },
    },
    meta,
  );
}

export type NewProjectMeta = ClientMeta & { deviceId: string | null };

/** The latest files of a project, without EXCLUDED_CLONE_FILENAMES: what a clone copies. */
export async function cloneableFiles(ctx: AppContext, projectId: string): Promise<FileRow[]> {
  return (await listCurrentFiles(ctx.database.db, projectId)).filter(
    (file) => !EXCLUDED_CLONE_FILENAMES.has(baseName(file.path)),
  );
}

export function filesSize(files: readonly FileRow[]): number {
  return files.reduce((sum, file) => sum + file.size, 0);
}

export interface NewProjectWithFiles {
  workspace: Workspace;
  name: string;
  public: boolean;
  creator: User;
  /** Files of another project: the new rows reference the same blobs. */
  files: readonly FileRow[];
  /** Where it came from, for the audit log (`{ cloned_from: 'ws/name' }`). */
  audit?: Record<string, unknown>;
}

/**
 * Inserts a project owned by its creator: with files it starts at v1 holding them all as
 * `added` (without a v0 record, like the reference's clones and template projects), without
 * files it is an empty v0. A name taken meanwhile is the 409 of a name clash.
 */
export async function insertProjectWithFiles(
  ctx: AppContext,
  input: NewProjectWithFiles,
  meta: NewProjectMeta,
): Promise<void> {
  const { workspace, name, creator, files } = input;
  const db = ctx.database.db;
  const at = ctx.now();
  try {
    await db.transaction(async (tx) => {
      const auditCreated = (id: string) =>
        recordAudit(ctx, tx, {
          action: 'project.created',
          actor: actorOf(creator),
          project: { id, name, workspaceId: workspace.id },
          workspace: { id: workspace.id, name: workspace.name },
          details: { public: input.public, files: files.length, ...input.audit },
        });
      if (files.length === 0) {
        const empty = await insertProjectWithInitialVersion(tx, {
          workspaceId: workspace.id,
          name,
          public: input.public,
          creatorId: creator.id,
          at,
          userAgent: meta.userAgent,
          ip: meta.ip,
          deviceId: meta.deviceId,
        });
        await upsertProjectMembers(tx, empty.id, [{ userId: creator.id, role: 'owner' }]);
        await auditCreated(empty.id);
        return;
      }
      const project = await insertProject(tx, {
        workspaceId: workspace.id,
        name,
        public: input.public,
        creatorId: creator.id,
        createdAt: at,
        updatedAt: at,
        latestVersion: 0,
      });
      await upsertProjectMembers(tx, project.id, [{ userId: creator.id, role: 'owner' }]);
      await auditCreated(project.id);
      await commitVersion(tx, {
        project,
        author: creator,
        userAgent: meta.userAgent,
        ip: meta.ip,
        deviceId: meta.deviceId,
        at,
        added: files.map((file) => ({
          path: file.path,
          size: file.size,
          checksum: file.checksum,
          blobKey: file.blobKey,
          mtime: file.mtime,
        })),
        blobStore: ctx.blobStore,
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await findProjectByName(db, workspace.id, name);
    throw projectNameClash(winner?.removedAt ?? null, ctx.now());
  }
}
