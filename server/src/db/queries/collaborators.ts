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
 * Active users matching the share dialog's search (services/collaborators.ts): by `email`,
 * the one whose address is exactly that (case-insensitive); by `usernamePrefix`, those whose
 * username starts with it (case-insensitive, wildcards literal); by `usernames`, exactly
 * those. Ordered by username (case-insensitive, so an exact match comes first), then id;
 * at most `limit`.
 */
export async function searchActiveUsers(
  db: Executor,
  filter: { email: string } | { usernamePrefix: string } | { usernames: string[] },
  limit: number,
): Promise<UserSummaryRow[]> {
  const username = sql`lower(${users.username})`;
  let match: SQL;
  if ('email' in filter) {
    match = sql`lower(${users.email}) = ${filter.email.toLowerCase()}`;
  } else if ('usernamePrefix' in filter) {
    const lowered = filter.usernamePrefix.toLowerCase();
    match = sql`${username} like ${`${likeLiteral(lowered)}%`}`;
  } else {
    if (filter.usernames.length === 0) return [];
    match = inArray(
      username,
      filter.usernames.map((name) => name.toLowerCase()),
    );
  }
  return db
    .select(summary)
    .from(users)
    .where(and(eq(users.active, true), match))
    .orderBy(sql`${username} COLLATE "C"`, asc(users.id))
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
