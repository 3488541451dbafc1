/**
 * Project settings (api-reference A.5): sharing through PUT /v1/project/{ns}/{name}, the
 * public flag, leaving a project and scheduling its deletion.
 */
import { kickWebhooks } from './webhooks/dispatcher';
import { queueProjectEvent } from './webhooks/events';
import type { AppContext } from '../context';
import { projectScope, recordAudit, usernameOf } from './audit';
import {
  deleteProjectMembers,
  listProjectMembers,
  setProjectPublic,
  upsertProjectMembers,
} from '../db/queries/projects';
import { findActiveUsersByIds, findActiveUsersByUsernames } from '../db/queries/users';
import type { ProjectRole, User } from '../db/schema';
import { badRequest } from '../errors';
import { assertSignedIn, projectFor, reloadProjectAccess, type ProjectRef } from './permissions';
import { removeProject } from './client-projects';
import { projectDetail, type ProjectDetail } from './project-detail';
import type { AccessSettings } from '../schemas/projects';
import { UPDATE_ACCESS_ERROR_CODE } from '../schemas/protocol';

export const OWNER_CANNOT_LEAVE = 'Owner cannot leave a project';
export const UPDATE_ACCESS_ERROR_DETAIL = `Project access could not be updated (${UPDATE_ACCESS_ERROR_CODE})`;

export interface UpdateAccessError {
  code: typeof UPDATE_ACCESS_ERROR_CODE;
  detail: string;
  invalid_usernames: string[];
  invalid_ids: number[];
}

export type UpdateAccessResult =
  | { status: 200; project: ProjectDetail }
  | { status: 207; error: UpdateAccessError; project: ProjectDetail }
  | { status: 422; error: UpdateAccessError };

/** Roles from the highest: a user listed under several gets the first (api-reference A.5). */
const ROLE_KEYS: readonly {
  role: ProjectRole;
  names: (keyof AccessSettings)[];
  ids: (keyof AccessSettings)[];
}[] = [
  { role: 'owner', names: ['ownersnames'], ids: ['owners'] },
  // There is no editor role here: editors are writers.
  { role: 'writer', names: ['writersnames', 'editorsnames'], ids: ['writers', 'editors'] },
  { role: 'reader', names: ['readersnames'], ids: ['readers'] },
];

/** The role's list as given: usernames (preferred) or ids; null when the role is absent. */
function listed(
  settings: AccessSettings,
  keys: (typeof ROLE_KEYS)[number],
): { names: string[] } | { ids: number[] } | null {
  const names = keys.names.map((k) => settings[k] as string[] | undefined).filter((v) => v);
  if (names.length > 0) return { names: names.flat() as string[] };
  const ids = keys.ids.map((k) => settings[k] as number[] | undefined).filter((v) => v);
  if (ids.length > 0) return { ids: ids.flat() as number[] };
  return null;
}

/**
 * PUT /v1/project/{namespace}/{name}: for every role given, its members are replaced by the
 * listed users (users holding that role but not listed lose their access); `public` sets the
 * flag. Unknown or inactive users are reported: 422 when nothing changed, 207 when some of
 * the change was made.
 */
export async function updateProjectAccess(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  settings: AccessSettings,
): Promise<UpdateAccessResult> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, ref, 'update');
  const db = ctx.database.db;
  const projectId = access.project.id;

  const invalidUsernames: string[] = [];
  const invalidIds: number[] = [];
  const assigned = new Map<number, ProjectRole>();
  const presentRoles = new Set<ProjectRole>();
  for (const keys of ROLE_KEYS) {
    const list = listed(settings, keys);
    if (!list) continue;
    presentRoles.add(keys.role);
    let found: { id: number }[];
    if ('names' in list) {
      const users = await findActiveUsersByUsernames(db, list.names);
      const byName = new Map(users.map((u) => [u.username.toLowerCase(), u]));
      found = [];
      for (const name of list.names) {
        const user = byName.get(name.toLowerCase());
        if (user) found.push(user);
        else if (!invalidUsernames.includes(name)) invalidUsernames.push(name);
      }
    } else {
      const users = await findActiveUsersByIds(db, list.ids);
      const byId = new Map(users.map((u) => [u.id, u]));
      found = [];
      for (const id of list.ids) {
        const user = byId.get(id);
        if (user) found.push(user);
        else if (!invalidIds.includes(id)) invalidIds.push(id);
      }
    }
    for (const user of found) if (!assigned.has(user.id)) assigned.set(user.id, keys.role);
  }

  const current = new Map(
    (await listProjectMembers(db, [projectId])).map((m) => [m.userId, m.role] as const),
  );
  const upserts = [...assigned]
    .filter(([userId, role]) => current.get(userId) !== role)
    .map(([userId, role]) => ({ userId, role }));
  const removals = [...current]
    .filter(([userId, role]) => presentRoles.has(role) && !assigned.has(userId))
    .map(([userId]) => userId);
  const publicChange =
    settings.public !== undefined && settings.public !== access.project.public
      ? settings.public
      : undefined;
  const changed = upserts.length > 0 || removals.length > 0 || publicChange !== undefined;

  const error: UpdateAccessError | null =
    invalidUsernames.length > 0 || invalidIds.length > 0
      ? {
          code: UPDATE_ACCESS_ERROR_CODE,
          detail: UPDATE_ACCESS_ERROR_DETAIL,
          invalid_usernames: invalidUsernames,
          invalid_ids: invalidIds,
        }
      : null;
  if (error && !changed) return { status: 422, error };

  if (changed) {
    await db.transaction(async (tx) => {
      await upsertProjectMembers(tx, projectId, upserts);
      await deleteProjectMembers(tx, projectId, removals);
      if (publicChange !== undefined) await setProjectPublic(tx, projectId, publicChange);
      for (const { userId, role } of upserts) {
        await recordAudit(ctx, tx, {
          action: 'project.share_changed',
          ...projectScope(access),
          target: { type: 'user', id: userId, name: await usernameOf(tx, userId) },
          details: { role },
        });
      }
      for (const userId of removals) {
        await recordAudit(ctx, tx, {
          action: 'project.share_changed',
          ...projectScope(access),
          target: { type: 'user', id: userId, name: await usernameOf(tx, userId) },
          details: { role: 'none' },
        });
      }
      if (publicChange !== undefined) {
        await recordAudit(ctx, tx, {
          action: publicChange ? 'project.made_public' : 'project.made_private',
          ...projectScope(access),
        });
      }
      if (upserts.length > 0 || removals.length > 0) {
        await queueProjectEvent(tx, {
          type: 'member.changed',
          projectId,
          at: ctx.now(),
          actorId: caller.id,
          data: {
            change: 'access_changed',
            members: [
              ...upserts.map((u) => ({ user_id: u.userId, role: u.role })),
              ...removals.map((id) => ({ user_id: id, role: null })),
            ],
          },
        });
      }
    });
    kickWebhooks(ctx);
  }
  const project = await projectDetail(ctx, await reloadProjectAccess(ctx, access));
  return error ? { status: 207, error, project } : { status: 200, project };
}

/** PATCH /app/project/{id}/public. */
export async function setProjectVisibility(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  isPublic: boolean,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  if (access.project.public === isPublic) return;
  await ctx.database.db.transaction(async (tx) => {
    await setProjectPublic(tx, access.project.id, isPublic);
    await recordAudit(ctx, tx, {
      action: isPublic ? 'project.made_public' : 'project.made_private',
      ...projectScope(access),
    });
  });
}

/** POST /app/project/unsubscribe/{id}: the caller gives up their direct role. */
export async function leaveProject(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'read');
  if (access.directRole === null) return;
  if (access.directRole === 'owner') throw badRequest(OWNER_CANNOT_LEAVE);
  await ctx.database.db.transaction(async (tx) => {
    await deleteProjectMembers(tx, access.project.id, [caller.id]);
    await recordAudit(ctx, tx, {
      action: 'project.share_changed',
      ...projectScope(access),
      target: { type: 'user', id: caller.id, name: caller.username },
      details: { role: 'none', left: true },
    });
  });
}

/**
 * POST /v2/projects/{id}/scheduleDelete: the project disappears at once (404 everywhere)
 * and is purged DELETED_PROJECT_EXPIRATION_DAYS later (services/purge.ts).
 */
export async function scheduleProjectDeletion(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'delete');
  await removeProject(ctx, access, caller, ctx.now());
}
