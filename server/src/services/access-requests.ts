/**
 * Lists of project access requests (api-reference A.7). Requests expire 7 days after they
 * were made (spec 001: enforced): an unresolved request past its expiry is listed with
 * status 'expired' and can no longer be accepted.
 */
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';
import {
  findPendingRequest,
  insertAccessRequest,
  listAccessRequestsPage,
  markRequestExpired,
  type AccessRequestRow,
  type AccessRequestSortColumn,
} from '../db/queries/access-requests';
import { findProjectByPath } from '../db/queries/projects';
import { findProjectOwnersToNotify } from '../db/queries/users';
import { findWorkspaceByName, findWorkspaceMemberRole } from '../db/queries/workspaces';
import type { User } from '../db/schema';
import { deliver } from '../email';
import { accessRequestMessage } from '../email/messages';
import { authRequired, forbidden, HttpProblem, notFound } from '../errors';
import { parseSqlOrder } from '../lib/ordering';
import { assertPageExists, pageWindow } from '../lib/pagination';
import { isoZ } from '../lib/time';
import { actorWorkspaceRole, canAdministerWorkspace } from './permissions';

export const ACCESS_REQUEST_TTL_DAYS = 7;
export const ALREADY_HAS_ACCESS = 'You already have access to project';
export const ACCESS_REQUEST_EXISTS = 'Project access request already exists';
export const NO_ACCESS_REQUEST_LIST_PERMISSION =
  "You don't have permissions to list project access requests";

export interface AccessRequestItem {
  id: number;
  requested_by: string;
  project_name: string;
  namespace: string;
  expire: string;
  status: 'pending' | 'expired';
}

export interface AccessRequestListQuery {
  page: number;
  perPage: number;
  orderParams?: string;
  projectName?: string;
}

/** Columns of access_requests, plus `expire` (the API's name for expires_at). */
const ACCESS_REQUEST_SORT: Readonly<Record<string, AccessRequestSortColumn>> = {
  id: 'id',
  project_id: 'project_id',
  requested_by: 'requested_by',
  requested_at: 'requested_at',
  resolved_by: 'resolved_by',
  resolved_at: 'resolved_at',
  status: 'status',
  expires_at: 'expires_at',
  expire: 'expires_at',
};

export function isExpired(row: Pick<AccessRequestRow, 'expiresAt' | 'status'>, now: Date): boolean {
  return row.status === 'expired' || row.expiresAt.getTime() <= now.getTime();
}

async function page(
  ctx: AppContext,
  query: AccessRequestListQuery,
  scope: { requestedBy: number } | { workspaceId: number },
): Promise<{ items: AccessRequestItem[]; count: number }> {
  const window = pageWindow({ page: query.page, perPage: query.perPage });
  const { rows, total } = await listAccessRequestsPage(ctx.database.db, {
    ...scope,
    projectName: query.projectName === '' ? undefined : query.projectName,
    order: parseSqlOrder(query.orderParams, ACCESS_REQUEST_SORT),
    ...window,
  });
  assertPageExists(query.page, rows.length);
  const now = ctx.now();
  return {
    items: rows.map((row) => ({
      id: row.id,
      requested_by: row.requestedBy,
      project_name: row.projectName,
      namespace: row.namespace,
      expire: isoZ(row.expiresAt),
      status: isExpired(row, now) ? 'expired' : 'pending',
    })),
    count: total,
  };
}

/** GET /app/project/access-requests: the caller's own unresolved requests. */
export async function listOwnAccessRequests(
  ctx: AppContext,
  user: User | null,
  query: AccessRequestListQuery,
): Promise<{ items: AccessRequestItem[]; count: number }> {
  if (!user || !user.active) throw authRequired();
  return page(ctx, query, { requestedBy: user.id });
}

/** GET /app/project/access-request/:namespace: requests for the workspace's projects. */
export async function listWorkspaceAccessRequests(
  ctx: AppContext,
  user: User | null,
  namespace: string,
  query: AccessRequestListQuery,
): Promise<{ items: AccessRequestItem[]; count: number }> {
  if (!user || !user.active) throw authRequired();
  const workspace = await findWorkspaceByName(ctx.database.db, namespace);
  if (!workspace || (!workspace.active && !user.isAdmin)) {
    throw forbidden(NO_ACCESS_REQUEST_LIST_PERMISSION);
  }
  const memberRole = await findWorkspaceMemberRole(ctx.database.db, workspace.id, user.id);
  if (!canAdministerWorkspace(actorWorkspaceRole(ctx.config, user, workspace.name, memberRole))) {
    throw forbidden(NO_ACCESS_REQUEST_LIST_PERMISSION);
  }
  return page(ctx, query, { workspaceId: workspace.id });
}

/**
 * POST /app/project/access-request/{namespace}/{project}: a pending request, expiring in
 * ACCESS_REQUEST_TTL_DAYS. An expired pending request does not block a new one (it is
 * marked expired). The project's owners and the superusers are told by mail.
 */
export async function createAccessRequest(
  ctx: AppContext,
  user: User | null,
  namespace: string,
  projectName: string,
): Promise<void> {
  if (!user || !user.active) throw authRequired();
  const db = ctx.database.db;
  const row = await findProjectByPath(db, namespace, projectName, user.id);
  const project = row?.project;
  if (!row || !project || project.removedAt || (!row.workspace.active && !user.isAdmin)) {
    throw notFound();
  }
  if (row.directRole !== null) throw new HttpProblem(409, ALREADY_HAS_ACCESS);

  const now = ctx.now();
  try {
    await db.transaction(async (tx) => {
      const pending = await findPendingRequest(tx, project.id, user.id);
      if (pending && !isExpired({ expiresAt: pending.expiresAt, status: null }, now)) {
        throw new HttpProblem(409, ACCESS_REQUEST_EXISTS);
      }
      if (pending) await markRequestExpired(tx, pending.id);
      await insertAccessRequest(tx, {
        projectId: project.id,
        requestedBy: user.id,
        requestedAt: now,
        expiresAt: new Date(now.getTime() + ACCESS_REQUEST_TTL_DAYS * 24 * 3600 * 1000),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpProblem(409, ACCESS_REQUEST_EXISTS);
    throw error;
  }

  const projectPath = `${row.workspace.name}/${project.name}`;
  const url = `${ctx.config.baseUrl}/projects/${encodeURIComponent(row.workspace.name)}/${encodeURIComponent(project.name)}/collaborators`;
  const owners = await findProjectOwnersToNotify(db, project.id);
  for (const owner of owners.filter((o) => o.id !== user.id)) {
    await deliver(
      ctx.mailer,
      ctx.log,
      accessRequestMessage(owner.email, owner.username, user.username, projectPath, url),
    );
  }
}
