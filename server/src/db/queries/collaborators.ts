/** SQL for the user search and a project's collaborator list. */
import { and, asc, eq, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database';
import {
  projectMembers,
  users,
  workspaceMembers,
  type ProjectRole,
  type WorkspaceRole,
} from '../schema';

export interface UserSummaryRow {
  id: number;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

const summary = {
  id: users.id,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** `text` as a LIKE pattern matching itself literally (`\` is the escape character). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Active users whose `column` (email or username) contains `text` case-insensitively,
 * ranked: exact match, prefix, word start (after `.`, `-`, `_` or a space), anywhere; then
 * by username (case-insensitive) and id. At most `limit`.
 */
export async function searchActiveUsers(
  db: Executor,
  options: { text: string; column: 'email' | 'username'; limit: number },
): Promise<UserSummaryRow[]> {
  const column = options.column === 'email' ? users.email : users.username;
  const lowered = options.text.toLowerCase();
  const literal = likeLiteral(lowered);
  const value = sql`lower(${column})`;
  const rank = sql`case
      when ${value} = ${lowered} then 0
      when ${value} like ${`${literal}%`} then 1
      when ${value} like ${`%.${literal}%`} or ${value} like ${`%-${literal}%`}
        or ${value} like ${`%\\_${literal}%`} or ${value} like ${`% ${literal}%`} then 2
      else 3 end`;
  return db
    .select(summary)
    .from(users)
    .where(and(eq(users.active, true), isNotNull(column), sql`${value} like ${`%${literal}%`}`))
    .orderBy(rank, sql`lower(${users.username}) COLLATE "C"`, asc(users.id))
    .limit(options.limit);
}

/** Active users by id or by username (case-insensitive), ordered by username. */
export async function findActiveUserSummaries(
  db: Executor,
  filter: { ids: number[] } | { usernames: string[] },
  limit: number,
): Promise<UserSummaryRow[]> {
  let match: SQL;
  if ('ids' in filter) {
    if (filter.ids.length === 0) return [];
    match = inArray(users.id, filter.ids);
  } else {
    if (filter.usernames.length === 0) return [];
    match = inArray(
      sql`lower(${users.username})`,
      filter.usernames.map((name) => name.toLowerCase()),
    );
  }
  return db
    .select(summary)
    .from(users)
    .where(and(eq(users.active, true), match))
    .orderBy(sql`lower(${users.username}) COLLATE "C"`, asc(users.id))
    .limit(limit);
}

export interface CollaboratorRow extends UserSummaryRow {
  isAdmin: boolean;
  active: boolean;
  directRole: ProjectRole | null;
  memberRole: WorkspaceRole | null;
}

/**
 * Active users who may have access to the project: a direct role, a workspace membership
 * above guest, superusers, and (`everyone`, when a global role applies) all active users.
 * Ordered by username (case-insensitive), then id.
 */
export async function listCollaboratorCandidates(
  db: Executor,
  options: { projectId: string; workspaceId: number; everyone: boolean; userId?: number },
): Promise<CollaboratorRow[]> {
  const rows = await db
    .select({
      ...summary,
      isAdmin: users.isAdmin,
      active: users.active,
      directRole: projectMembers.role,
      memberRole: workspaceMembers.role,
    })
    .from(users)
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.userId, users.id), eq(projectMembers.projectId, options.projectId)),
    )
    .leftJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.userId, users.id),
        eq(workspaceMembers.workspaceId, options.workspaceId),
      ),
    )
    .where(
      and(
        eq(users.active, true),
        options.userId === undefined ? undefined : eq(users.id, options.userId),
        options.everyone
          ? undefined
          : or(
              isNotNull(projectMembers.role),
              eq(users.isAdmin, true),
              and(isNotNull(workspaceMembers.role), ne(workspaceMembers.role, 'guest')),
            ),
      ),
    )
    .orderBy(sql`lower(${users.username}) COLLATE "C"`, asc(users.id));
  return rows;
}
