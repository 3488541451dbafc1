/** SQL for workspaces and workspace membership. */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import {
  projects,
  workspaceMembers,
  workspaces,
  type Workspace,
  type WorkspaceRole,
} from '../schema';

export async function findWorkspaceByName(db: Executor, name: string): Promise<Workspace | null> {
  const rows = await db
    .select()
    .from(workspaces)
    .where(sql`lower(${workspaces.name}) = lower(${name})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function insertWorkspace(
  db: Executor,
  values: typeof workspaces.$inferInsert,
): Promise<Workspace> {
  const rows = await db.insert(workspaces).values(values).returning();
  return rows[0]!;
}

export async function updateWorkspaceStorage(
  db: Executor,
  id: number,
  storage: number,
): Promise<void> {
  await db.update(workspaces).set({ storage }).where(eq(workspaces.id, id));
}

export async function setWorkspaceMember(
  db: Executor,
  workspaceId: number,
  userId: number,
  role: WorkspaceRole,
): Promise<void> {
  await db
    .insert(workspaceMembers)
    .values({ workspaceId, userId, role })
    .onConflictDoUpdate({
      target: [workspaceMembers.workspaceId, workspaceMembers.userId],
      set: { role },
    });
}

export interface WorkspaceUsageRow {
  id: number;
  name: string;
  storage: number;
  diskUsage: number;
  projectCount: number;
  /** The user's explicit membership role, if any. */
  memberRole: WorkspaceRole | null;
}

/**
 * Active workspaces with usage (non-removed projects) and the user's membership role.
 * `filter`: `all` for superusers; otherwise the named global workspace plus memberships.
 */
export async function listWorkspacesWithUsage(
  db: Executor,
  options: { userId: number; all: boolean; globalName: string; workspaceId?: number },
): Promise<WorkspaceUsageRow[]> {
  const usage = db
    .select({
      workspaceId: projects.workspaceId,
      // What the allowance counts: the bytes the projects keep stored (file-store/README.md).
      diskUsage: sql<number>`coalesce(sum(${projects.storedBytes}), 0)`
        .mapWith(Number)
        .as('disk_usage'),
      projectCount: sql<number>`count(*)`.mapWith(Number).as('project_count'),
    })
    .from(projects)
    .where(sql`${projects.removedAt} IS NULL`)
    .groupBy(projects.workspaceId)
    .as('usage');

  const visible = options.all
    ? sql`true`
    : sql`(lower(${workspaces.name}) = lower(${options.globalName}) OR ${workspaceMembers.userId} IS NOT NULL)`;

  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      storage: workspaces.storage,
      diskUsage: sql<number>`coalesce(${usage.diskUsage}, 0)`.mapWith(Number),
      projectCount: sql<number>`coalesce(${usage.projectCount}, 0)`.mapWith(Number),
      memberRole: workspaceMembers.role,
    })
    .from(workspaces)
    .leftJoin(usage, eq(usage.workspaceId, workspaces.id))
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, workspaces.id),
        eq(workspaceMembers.userId, options.userId),
      ),
    )
    .where(
      and(
        eq(workspaces.active, true),
        visible,
        options.workspaceId === undefined ? undefined : eq(workspaces.id, options.workspaceId),
      ),
    )
    .orderBy(workspaces.id);
  return rows;
}

export async function findWorkspaceById(db: Executor, id: number): Promise<Workspace | null> {
  const rows = await db.select().from(workspaces).where(eq(workspaces.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Every workspace with `userId`'s membership role in it (null when not a member). */
export async function listWorkspaceRoles(
  db: Executor,
  userId: number,
): Promise<{ id: number; name: string; active: boolean; memberRole: WorkspaceRole | null }[]> {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      active: workspaces.active,
      memberRole: workspaceMembers.role,
    })
    .from(workspaces)
    .leftJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, userId)),
    )
    .orderBy(workspaces.id);
}

export async function findWorkspaceMemberRole(
  db: Executor,
  workspaceId: number,
  userId: number,
): Promise<WorkspaceRole | null> {
  const rows = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .limit(1);
  return rows[0]?.role ?? null;
}

/**
 * Locks the workspace's row until the transaction ends: serialises changes that read, then
 * write its members (the last-owner rule, one invitation per address).
 */
export async function lockWorkspace(tx: Executor, workspaceId: number): Promise<void> {
  await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('update');
}
