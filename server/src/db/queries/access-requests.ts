/** SQL for project access requests. */
import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database';
import {
  accessRequests,
  projects,
  users,
  workspaces,
  type AccessRequestStatus,
  type ProjectRole,
} from '../schema';

export type AccessRequestSortColumn =
  | 'id'
  | 'project_id'
  | 'requested_by'
  | 'requested_at'
  | 'resolved_by'
  | 'resolved_at'
  | 'status'
  | 'expires_at';

const SORT_COLUMNS = {
  id: accessRequests.id,
  project_id: accessRequests.projectId,
  requested_by: accessRequests.requestedBy,
  requested_at: accessRequests.requestedAt,
  resolved_by: accessRequests.resolvedBy,
  resolved_at: accessRequests.resolvedAt,
  status: accessRequests.status,
  expires_at: accessRequests.expiresAt,
} as const satisfies Record<AccessRequestSortColumn, unknown>;

export interface AccessRequestListFilter {
  /** Requests made by this user. */
  requestedBy?: number;
  /** Requests for projects of this workspace. */
  workspaceId?: number;
  /** Exact project name. */
  projectName?: string;
  order: { column: AccessRequestSortColumn; descending: boolean }[];
  limit: number;
  offset: number;
}

export interface AccessRequestRow {
  id: number;
  requestedBy: string;
  projectName: string;
  namespace: string;
  expiresAt: Date;
  status: AccessRequestStatus | null;
}

/**
 * One page of unresolved requests (pending, including those past their expiry) for
 * projects not scheduled for deletion, and the total number matching.
 */
export async function listAccessRequestsPage(
  db: Executor,
  filter: AccessRequestListFilter,
): Promise<{ rows: AccessRequestRow[]; total: number }> {
  const where = and(
    or(isNull(accessRequests.status), eq(accessRequests.status, 'expired')),
    isNull(projects.removedAt),
    filter.requestedBy === undefined
      ? undefined
      : eq(accessRequests.requestedBy, filter.requestedBy),
    filter.workspaceId === undefined ? undefined : eq(projects.workspaceId, filter.workspaceId),
    filter.projectName === undefined ? undefined : eq(projects.name, filter.projectName),
  );
  const orderBy: SQL[] = filter.order.map((term) =>
    term.descending ? desc(SORT_COLUMNS[term.column]) : asc(SORT_COLUMNS[term.column]),
  );
  orderBy.push(asc(accessRequests.id));

  const rows = await db
    .select({
      id: accessRequests.id,
      requestedBy: users.username,
      projectName: projects.name,
      namespace: workspaces.name,
      expiresAt: accessRequests.expiresAt,
      status: accessRequests.status,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(accessRequests)
    .innerJoin(projects, eq(projects.id, accessRequests.projectId))
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .innerJoin(users, eq(users.id, accessRequests.requestedBy))
    .where(where)
    .orderBy(...orderBy)
    .limit(filter.limit)
    .offset(filter.offset);

  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.offset > 0) {
    const [counted] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(accessRequests)
      .innerJoin(projects, eq(projects.id, accessRequests.projectId))
      .where(where);
    total = counted?.n ?? 0;
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** Declines every pending request of a user (closing the account). */
export async function declinePendingRequestsOf(
  db: Executor,
  userId: number,
  at: Date,
): Promise<void> {
  await db
    .update(accessRequests)
    .set({ status: 'declined', resolvedAt: at, resolvedBy: userId })
    .where(
      and(
        eq(accessRequests.requestedBy, userId),
        or(isNull(accessRequests.status), eq(accessRequests.status, 'expired')),
      ),
    );
}

/** The user's unresolved (status NULL) request for the project, if any. */
export async function findPendingRequest(
  db: Executor,
  projectId: string,
  userId: number,
): Promise<{ id: number; expiresAt: Date } | null> {
  const rows = await db
    .select({ id: accessRequests.id, expiresAt: accessRequests.expiresAt })
    .from(accessRequests)
    .where(
      and(
        eq(accessRequests.projectId, projectId),
        eq(accessRequests.requestedBy, userId),
        isNull(accessRequests.status),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Marks a request as expired (it no longer counts as pending). */
export async function markRequestExpired(db: Executor, id: number): Promise<void> {
  await db
    .update(accessRequests)
    .set({ status: 'expired' })
    .where(and(eq(accessRequests.id, id), isNull(accessRequests.status)));
}

export async function insertAccessRequest(
  db: Executor,
  values: { projectId: string; requestedBy: number; requestedAt: Date; expiresAt: Date },
): Promise<number> {
  const rows = await db.insert(accessRequests).values(values).returning({ id: accessRequests.id });
  return rows[0]!.id;
}

export interface AccessRequestRecord {
  id: number;
  projectId: string;
  requestedBy: number;
  expiresAt: Date;
  status: AccessRequestStatus | null;
}

/** One request by id, whatever its state. */
export async function findAccessRequestById(
  db: Executor,
  id: number,
): Promise<AccessRequestRecord | null> {
  const rows = await db
    .select({
      id: accessRequests.id,
      projectId: accessRequests.projectId,
      requestedBy: accessRequests.requestedBy,
      expiresAt: accessRequests.expiresAt,
      status: accessRequests.status,
    })
    .from(accessRequests)
    .where(eq(accessRequests.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Resolves an unresolved request (pending, or marked expired) as accepted or declined;
 * false when it was resolved meanwhile (another answer won).
 */
export async function resolveAccessRequest(
  db: Executor,
  id: number,
  values: {
    status: 'accepted' | 'declined';
    resolvedBy: number;
    resolvedAt: Date;
    permission?: ProjectRole;
  },
): Promise<boolean> {
  const rows = await db
    .update(accessRequests)
    .set(values)
    .where(
      and(
        eq(accessRequests.id, id),
        or(isNull(accessRequests.status), eq(accessRequests.status, 'expired')),
      ),
    )
    .returning({ id: accessRequests.id });
  return rows.length > 0;
}
