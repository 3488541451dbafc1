/** SQL for a workspace's members and its pending invitations. */
import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import {
  projectMembers,
  projects,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
  type Workspace,
  type WorkspaceInvitation,
  type WorkspaceRole,
} from '../schema';

export interface MemberRow {
  id: number;
  username: string;
  email: string | null;
  role: WorkspaceRole;
}

/** The explicit members of a workspace (active accounts), by username. */
export async function listWorkspaceMembers(
  db: Executor,
  workspaceId: number,
  userId?: number,
): Promise<MemberRow[]> {
  return db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(users.active, true),
        userId === undefined ? undefined : eq(users.id, userId),
      ),
    )
    .orderBy(asc(sql`lower(${users.username})`));
}

export interface RoleHolderRow {
  id: number;
  username: string;
  email: string | null;
  isAdmin: boolean;
  /** The explicit membership's role; null for users without one. */
  memberRole: WorkspaceRole | null;
}

/**
 * Every active user with their explicit role in the workspace, if any (for the global
 * workspace under a GLOBAL_* setting, where everybody holds a role), by username.
 */
export async function listEveryoneWithWorkspaceRole(
  db: Executor,
  workspaceId: number,
  userId?: number,
): Promise<RoleHolderRow[]> {
  return db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      isAdmin: users.isAdmin,
      memberRole: workspaceMembers.role,
    })
    .from(users)
    .leftJoin(
      workspaceMembers,
      and(eq(workspaceMembers.userId, users.id), eq(workspaceMembers.workspaceId, workspaceId)),
    )
    .where(and(eq(users.active, true), userId === undefined ? undefined : eq(users.id, userId)))
    .orderBy(asc(sql`lower(${users.username})`));
}

export async function countWorkspaceOwners(db: Executor, workspaceId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.role, 'owner'),
        eq(users.active, true),
      ),
    );
  return row?.n ?? 0;
}

export async function deleteWorkspaceMember(
  db: Executor,
  workspaceId: number,
  userId: number,
): Promise<void> {
  await db
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
}

/** Removes the user's project roles in every project of the workspace. */
export async function deleteProjectRolesInWorkspace(
  db: Executor,
  workspaceId: number,
  userId: number,
): Promise<void> {
  const inWorkspace = db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.workspaceId, workspaceId));
  await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.userId, userId), inArray(projectMembers.projectId, inWorkspace)));
}

export async function listInvitations(
  db: Executor,
  workspaceId: number,
): Promise<WorkspaceInvitation[]> {
  return db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.workspaceId, workspaceId))
    .orderBy(asc(workspaceInvitations.createdAt), asc(workspaceInvitations.id));
}

export async function findInvitationByEmail(
  db: Executor,
  workspaceId: number,
  email: string,
): Promise<WorkspaceInvitation | null> {
  const rows = await db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        sql`lower(${workspaceInvitations.email}) = lower(${email})`,
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function findInvitationByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<WorkspaceInvitation | null> {
  const rows = await db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.tokenHash, tokenHash))
    .limit(1);
  return rows[0] ?? null;
}

/** Inserts the invitation, or renews the one already pending for that email. */
export async function upsertInvitation(
  db: Executor,
  values: typeof workspaceInvitations.$inferInsert,
): Promise<WorkspaceInvitation> {
  const existing = await findInvitationByEmail(db, values.workspaceId, values.email);
  if (existing) {
    const rows = await db
      .update(workspaceInvitations)
      .set(values)
      .where(eq(workspaceInvitations.id, existing.id))
      .returning();
    return rows[0]!;
  }
  const rows = await db.insert(workspaceInvitations).values(values).returning();
  return rows[0]!;
}

/** Deletes one invitation; what it was (its email and role), or null when there was none. */
export async function deleteInvitation(
  db: Executor,
  workspaceId: number,
  id: number,
): Promise<{ email: string; role: string } | null> {
  const [row] = await db
    .delete(workspaceInvitations)
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.id, id)))
    .returning({ email: workspaceInvitations.email, role: workspaceInvitations.role });
  return row ?? null;
}

/** The unexpired invitations of an email (any case) into active workspaces, oldest first. */
export async function listInvitationsForEmail(
  db: Executor,
  email: string,
  now: Date,
): Promise<{ invitation: WorkspaceInvitation; workspace: Workspace }[]> {
  return db
    .select({ invitation: workspaceInvitations, workspace: workspaces })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .where(
      and(
        sql`lower(${workspaceInvitations.email}) = lower(${email})`,
        gt(workspaceInvitations.expiresAt, now),
        eq(workspaces.active, true),
      ),
    )
    .orderBy(asc(workspaceInvitations.createdAt), asc(workspaceInvitations.id));
}

export async function findInvitationByUuid(
  db: Executor,
  uuid: string,
): Promise<WorkspaceInvitation | null> {
  const rows = await db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.uuid, uuid))
    .limit(1);
  return rows[0] ?? null;
}
