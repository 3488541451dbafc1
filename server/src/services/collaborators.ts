/**
 * Who has access to a project and changing it one user at a time (spec 001 §7: GET/PATCH
 * /app/project/{id}/access), and the user search of the share dialog (api-reference A.2).
 */
import type { AppContext } from '../context';
import type { Executor } from '../db/database';
import { projectScope, recordAudit, usernameOf } from './audit';
import {
  listCollaboratorCandidates,
  searchActiveUsers,
  type CollaboratorRow,
  type UserSummaryRow,
} from '../db/queries/collaborators';
import {
  deleteProjectMembers,
  setProjectPublic,
  upsertProjectMembers,
} from '../db/queries/projects';
import { findUserByEmail, findUserById, findUserByUsername } from '../db/queries/users';
import type { User } from '../db/schema';
import { PROJECT_ROLES, type ProjectRole } from '../schemas/roles';
import { badRequest, forbidden, HttpProblem, notFound } from '../errors';
import {
  assertSignedIn,
  effectiveProjectRole,
  isGlobalWorkspace,
  projectFor,
  projectPermissions,
  projectRoleRank,
  workspaceFor,
  workspaceRole,
  WORKSPACE_NOT_FOUND,
  type ProjectAccess,
} from './permissions';
import { displayName } from './users';
import { kickWebhooks } from './webhooks/dispatcher';
import { queueProjectEvent } from './webhooks/events';
import type {
  AccessChangeBody,
  AddCollaboratorBody,
  CollaboratorRole,
  Member,
  UserSearchQuery,
  UserSearchResult,
} from '../schemas/collaborators';
import { USER_SEARCH_MIN_LENGTH } from '../schemas/protocol';

/** Most users one search answers. */
export const SEARCH_LIMIT = 10;
/** Fewest characters of a username prefix that search: shorter ones answer nothing. */
export const SEARCH_MIN_PREFIX = USER_SEARCH_MIN_LENGTH;
/** Most usernames one `names` lookup takes. */
export const SEARCH_MAX_NAMES = 10;
export const NO_SEARCH_PERMISSION = 'You do not have permissions to search within workspace';
export const USER_NOT_FOUND = 'User not found';
export const ACCESS_CHANGE_REQUIRED = "Either 'user_id' with 'role', or 'public' is required";
export const ALREADY_MEMBER = 'User is already a project member';

/** A search result; the email only when the caller may see it. */
function searchResult(row: UserSummaryRow, showEmail: boolean): UserSearchResult {
  return {
    id: row.id,
    username: row.username,
    email: showEmail ? row.email : null,
    name: displayName(row),
    profile: { first_name: row.firstName, last_name: row.lastName },
  };
}

/** Comma-separated parts, trimmed, empty ones left out. */
function parts(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/**
 * GET /app/auth/user/search: what sharing needs and no more, so no signed-in user can list
 * the instance's users (docs/decisions: "Input hardening"). At most SEARCH_LIMIT active users:
 * - `like` with an `@`: the user with exactly that email (case-insensitive), email shown;
 * - other `like`: usernames starting with it, at least SEARCH_MIN_PREFIX characters
 *   (shorter: none), an exact username first;
 * - `names`: those usernames exactly (at most SEARCH_MAX_NAMES);
 * - `id`: none (ids are sequential: looking them up would list everybody).
 * Emails are shown only for an exact email match and for the caller's own row.
 */
export async function searchUsers(
  ctx: AppContext,
  caller: User | null,
  query: UserSearchQuery,
): Promise<UserSearchResult[]> {
  assertSignedIn(caller);
  const target = await workspaceFor(ctx, caller, query.namespace);
  if (!target) throw notFound(WORKSPACE_NOT_FOUND);
  if (!target.member) throw forbidden(NO_SEARCH_PERMISSION);
  const db = ctx.database.db;

  let rows: UserSummaryRow[] = [];
  let byEmail = false;
  if (query.id !== undefined) {
    // Answered with nobody, as before: `id` takes precedence over `names` and `like`.
  } else if (query.names !== undefined) {
    const names = parts(query.names);
    if (names.length <= SEARCH_MAX_NAMES) {
      rows = await searchActiveUsers(db, { usernames: names }, SEARCH_LIMIT);
    }
  } else if (query.like !== undefined) {
    const text = query.like.trim();
    if (text.includes('@')) {
      byEmail = true;
      rows = await searchActiveUsers(db, { email: text }, SEARCH_LIMIT);
    } else if ([...text].length >= SEARCH_MIN_PREFIX) {
      rows = await searchActiveUsers(db, { usernamePrefix: text }, SEARCH_LIMIT);
    }
  }
  return rows.map((row) => searchResult(row, byEmail || row.id === caller.id));
}

function memberEntry(ctx: AppContext, workspaceName: string, row: CollaboratorRow) {
  const wsRole = workspaceRole(ctx.config, row, workspaceName, row.memberRole);
  const role = effectiveProjectRole(
    projectPermissions(row, {
      public: false,
      removed: false,
      directRole: row.directRole,
      workspaceRole: wsRole,
    }),
  );
  if (!role) return null;
  const entry: Member = {
    id: row.id,
    type: 'member',
    email: row.email,
    username: row.username,
    name: displayName(row),
    workspace_role: wsRole,
    project_role: row.directRole,
    role,
    project_permission: role,
    roles: PROJECT_ROLES.slice(0, projectRoleRank(role)),
  };
  return entry;
}

async function memberList(ctx: AppContext, access: ProjectAccess): Promise<Member[]> {
  const { config } = ctx;
  const everyone =
    isGlobalWorkspace(config, access.workspace.name) &&
    (config.globalAdmin || config.globalWrite || config.globalRead);
  const rows = await listCollaboratorCandidates(ctx.database.db, {
    projectId: access.project.id,
    workspaceId: access.workspace.id,
    everyone,
  });
  return rows
    .map((row) => memberEntry(ctx, access.workspace.name, row))
    .filter((entry): entry is Member => entry !== null);
}

/** GET /app/project/{id}/access: everybody with access to the project (read permission). */
export async function listProjectAccess(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
): Promise<Member[]> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'read');
  return memberList(ctx, access);
}

/**
 * PATCH /app/project/{id}/access (owner's rights): sets one user's direct role (`none`
 * removes it) and/or the public flag; answers the member list after the change.
 */
export async function changeProjectAccess(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  change: AccessChangeBody,
): Promise<Member[]> {
  assertSignedIn(caller);
  if (change.user_id !== undefined && change.role === undefined) {
    throw badRequest("'role' is a required property");
  }
  if (change.role !== undefined && change.user_id === undefined) {
    throw badRequest("'user_id' is a required property");
  }
  if (change.user_id === undefined && change.public === undefined) {
    throw badRequest(ACCESS_CHANGE_REQUIRED);
  }
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  const db = ctx.database.db;
  let member: { userId: number; username: string; role: ProjectRole | 'none' } | null = null;
  if (change.user_id !== undefined && change.role !== undefined) {
    const target = await findUserById(db, change.user_id);
    if (!target?.active) throw notFound(USER_NOT_FOUND);
    member = { userId: target.id, username: target.username, role: change.role };
  }
  await db.transaction(async (tx) => {
    if (member?.role === 'none') await deleteProjectMembers(tx, access.project.id, [member.userId]);
    else if (member) {
      await upsertProjectMembers(tx, access.project.id, [
        { userId: member.userId, role: member.role as ProjectRole },
      ]);
    }
    if (member) {
      await auditShare(ctx, tx, access, member.userId, member.role);
      const target = { id: member.userId, username: member.username };
      const none = member.role === 'none';
      await memberEvent(
        ctx,
        tx,
        access,
        caller,
        target,
        none ? 'removed' : 'role_changed',
        none ? null : member.role,
      );
    }
    if (change.public !== undefined && change.public !== access.project.public) {
      await setProjectPublic(tx, access.project.id, change.public);
      await recordAudit(ctx, tx, {
        action: change.public ? 'project.made_public' : 'project.made_private',
        ...projectScope(access),
      });
    }
  });
  kickWebhooks(ctx);
  return memberList(ctx, access);
}

// ---------------------------------------------------------------------------------------
// v2 collaborators (api-reference A.5): owner's rights for all four calls.

/** A v2 role name as a role: there is no editor role here, editors are writers. */
function directRoleOf(role: CollaboratorRole): ProjectRole {
  return role === 'editor' ? 'writer' : role;
}

/** One user's entry as the member list shows it (after a change). */
async function memberEntryOf(
  ctx: AppContext,
  access: ProjectAccess,
  userId: number,
): Promise<Member> {
  const [row] = await listCollaboratorCandidates(ctx.database.db, {
    projectId: access.project.id,
    workspaceId: access.workspace.id,
    everyone: true,
    userId,
  });
  const entry = row ? memberEntry(ctx, access.workspace.name, row) : null;
  if (!entry) throw notFound();
  return entry;
}

/** GET /v2/projects/{id}/collaborators. */
export async function listCollaborators(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
): Promise<Member[]> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  return memberList(ctx, access);
}

/** POST /v2/projects/{id}/collaborators: `user` is a username or an email. */
export async function addCollaborator(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  input: AddCollaboratorBody,
): Promise<Member> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  const db = ctx.database.db;
  const login = input.user.trim();
  const target = login.includes('@')
    ? await findUserByEmail(db, login)
    : await findUserByUsername(db, login);
  if (!target?.active) throw notFound(USER_NOT_FOUND);
  const current = await listCollaboratorCandidates(db, {
    projectId: access.project.id,
    workspaceId: access.workspace.id,
    everyone: true,
    userId: target.id,
  });
  if (current[0]?.directRole) throw new HttpProblem(409, ALREADY_MEMBER);
  await db.transaction(async (tx) => {
    await upsertProjectMembers(tx, access.project.id, [
      { userId: target.id, role: directRoleOf(input.role) },
    ]);
    await auditShare(ctx, tx, access, target.id, directRoleOf(input.role), target.username);
    await memberEvent(ctx, tx, access, caller, target, 'added', directRoleOf(input.role));
  });
  kickWebhooks(ctx);
  return memberEntryOf(ctx, access, target.id);
}

/** The direct member `userIdText` of the project (404 when there is none). */
async function directMember(ctx: AppContext, access: ProjectAccess, userIdText: string) {
  const userId = /^[0-9]{1,9}$/.test(userIdText) ? Number(userIdText) : null;
  if (userId === null) throw notFound();
  const [row] = await listCollaboratorCandidates(ctx.database.db, {
    projectId: access.project.id,
    workspaceId: access.workspace.id,
    everyone: true,
    userId,
  });
  if (!row?.directRole) throw notFound();
  return row;
}

/** PATCH /v2/projects/{id}/collaborators/{user_id}. */
export async function updateCollaborator(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  userIdText: string,
  role: CollaboratorRole,
): Promise<Member> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  const row = await directMember(ctx, access, userIdText);
  await ctx.database.db.transaction(async (tx) => {
    await upsertProjectMembers(tx, access.project.id, [
      { userId: row.id, role: directRoleOf(role) },
    ]);
    await auditShare(ctx, tx, access, row.id, directRoleOf(role), row.username);
    await memberEvent(ctx, tx, access, caller, row, 'role_changed', directRoleOf(role));
  });
  kickWebhooks(ctx);
  return memberEntryOf(ctx, access, row.id);
}

/** DELETE /v2/projects/{id}/collaborators/{user_id}. */
export async function removeCollaborator(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  userIdText: string,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  const row = await directMember(ctx, access, userIdText);
  await ctx.database.db.transaction(async (tx) => {
    await deleteProjectMembers(tx, access.project.id, [row.id]);
    await auditShare(ctx, tx, access, row.id, 'none', row.username);
    await memberEvent(ctx, tx, access, caller, row, 'removed', null);
  });
  kickWebhooks(ctx);
}

/** One entry for a change of a user's direct role on the project ('none': removed). */
async function auditShare(
  ctx: AppContext,
  tx: Executor,
  access: ProjectAccess,
  userId: number,
  role: ProjectRole | 'none',
  username?: string,
): Promise<void> {
  const name = username ?? (await usernameOf(tx, userId));
  await recordAudit(ctx, tx, {
    action: 'project.share_changed',
    ...projectScope(access),
    target: { type: 'user', id: userId, name },
    details: { role },
  });
}

/** A project's member.changed webhook message (services/webhooks/), in `tx`. */
async function memberEvent(
  ctx: AppContext,
  tx: Executor,
  access: ProjectAccess,
  caller: User,
  target: { id: number; username: string },
  change: 'added' | 'role_changed' | 'removed',
  role: string | null,
): Promise<void> {
  await queueProjectEvent(tx, {
    type: 'member.changed',
    projectId: access.project.id,
    at: ctx.now(),
    actorId: caller.id,
    data: { change, user: { id: target.id, username: target.username }, role },
  });
}
