/**
 * POST /v1/project/clone/{namespace}/{project} (api-reference A.5): a new private project
 * with the source's latest files. Files are not copied: the new project's rows reference the
 * same blobs. Files named like EXCLUDED_CLONE_FILENAMES are left out.
 */
import type { ClientMeta } from '../auth/sessions';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';
import { listCurrentFiles } from '../db/queries/files';
import {
  findProjectByName,
  insertProject,
  insertProjectWithInitialVersion,
  upsertProjectMembers,
  workspaceDiskUsage,
} from '../db/queries/projects';
import type { User } from '../db/schema';
import { badRequest, forbidden, HttpProblem, notFound } from '../errors';
import { baseName } from '../lib/paths';
import { PROJECT_NAME_EMPTY, projectNameError } from '../lib/validation';
import { assertSignedIn, canCreateProject, projectFor, workspaceFor } from './permissions';
import {
  NO_WORKSPACE_PERMISSIONS,
  projectNameClash,
  WORKSPACE_DOES_NOT_EXIST,
  WORKSPACE_DOES_NOT_EXIST_UPDATE,
} from './projects';
import { commitVersion } from './versions';
import type { CloneBody } from '../schemas/projects';

/** Basenames never copied into a clone (the reference's default). */
export const EXCLUDED_CLONE_FILENAMES: ReadonlySet<string> = new Set(['qgis_cfg.xml']);

export const STORAGE_LIMIT_CODE = 'StorageLimitHit';
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
  meta: ClientMeta & { deviceId: string | null },
): Promise<void> {
  assertSignedIn(caller);
  const from = await projectFor(ctx, caller, source, 'read');
  const db = ctx.database.db;

  const name = input.project == null ? from.project.name : input.project.trim();
  if (name === '') throw badRequest(PROJECT_NAME_EMPTY);
  const namespace = input.namespace?.trim() || from.workspace.name;

  const target = await workspaceFor(ctx, caller, namespace);
  if (!target) {
    throw notFound(
      namespace.toLowerCase() === caller.username.toLowerCase()
        ? WORKSPACE_DOES_NOT_EXIST_UPDATE
        : WORKSPACE_DOES_NOT_EXIST,
    );
  }
  if (!canCreateProject(target.role)) throw forbidden(NO_WORKSPACE_PERMISSIONS);
  const workspace = target.workspace;
  if (name !== from.project.name) {
    const problem = projectNameError(name);
    if (problem) throw badRequest(problem);
  }
  const existing = await findProjectByName(db, workspace.id, name);
  if (existing) throw projectNameClash(existing.removedAt, ctx.now());

  const files = (await listCurrentFiles(db, from.project.id)).filter(
    (file) => !EXCLUDED_CLONE_FILENAMES.has(baseName(file.path)),
  );
  const size = files.reduce((sum, file) => sum + file.size, 0);
  const usage = await workspaceDiskUsage(db, workspace.id);
  if (usage + size > workspace.storage) throw storageLimitHit(usage, workspace.storage);

  const at = ctx.now();
  try {
    await db.transaction(async (tx) => {
      if (files.length === 0) {
        const empty = await insertProjectWithInitialVersion(tx, {
          workspaceId: workspace.id,
          name,
          public: false,
          creatorId: caller.id,
          at,
          userAgent: meta.userAgent,
          ip: meta.ip,
          deviceId: meta.deviceId,
        });
        await upsertProjectMembers(tx, empty.id, [{ userId: caller.id, role: 'owner' }]);
        return;
      }
      // Like the reference: a clone with files starts at v1, without a v0 record.
      const project = await insertProject(tx, {
        workspaceId: workspace.id,
        name,
        public: false,
        creatorId: caller.id,
        createdAt: at,
        updatedAt: at,
        latestVersion: 0,
      });
      await upsertProjectMembers(tx, project.id, [{ userId: caller.id, role: 'owner' }]);
      await commitVersion(tx, {
        project,
        author: caller,
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
