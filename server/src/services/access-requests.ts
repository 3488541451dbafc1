/**
 * Lists of project access requests (api-reference A.7). Requests expire 7 days after they
 * were made (spec 001: enforced): an unresolved request past its expiry is listed with
 * status 'expired' and can no longer be accepted.
 */
import type { AppContext } from '../context';
import { projectScope, recordAudit, usernameOf } from './audit';
import { isUniqueViolation } from '../db/errors';
import {
  findAccessRequestById,
  findPendingRequest,
  insertAccessRequest,
  listAccessRequestsPage,
  markRequestExpired,
  resolveAccessRequest,
  type AccessRequestRow,
  type AccessRequestSortColumn,
} from '../db/queries/access-requests';
import { upsertProjectMembers } from '../db/queries/projects';
import { findProjectOwnersToNotify } from '../db/queries/users';
import type { ProjectRole, User } from '../db/schema';
import { deliver } from '../email';
import { accessRequestMessage } from '../email/messages';
import { FormError, forbidden, HttpProblem, notFound } from '../errors';
import { parseSqlOrder } from '../lib/ordering';
import { assertPageExists, pageWindow } from '../lib/pagination';
import { isoZ } from '../lib/time';
import { idOf } from '../lib/validation';
import {
  assertSignedIn,
  canAdministerWorkspace,
  canOwn,
  canRemoveAccessRequest,
  projectFor,
  workspaceFor,
} from './permissions';
import type { AccessRequest } from '../schemas/access-requests';

export const ACCESS_REQUEST_TTL_DAYS = 7;
export const ALREADY_HAS_ACCESS = 'You already have access to project';
export const ACCESS_REQUEST_EXISTS = 'Project access request already exists';
export const NO_ACCESS_REQUEST_LIST_PERMISSION =
  "You don't have permissions to list project access requests";
export const NO_ACCESS_REQUEST_ACCEPT_PERMISSION =
  "You don't have permissions to accept project access request";
export const NO_ACCESS_REQUEST_REMOVE_PERMISSION =
  "You don't have permissions to remove project access request";
export const ACCESS_REQUEST_EXPIRED = 'Project access request has expired';
export const NOT_A_VALID_CHOICE = 'Not a valid choice.';

/** The accept call's permission names → project roles (there is no editor role here). */
export const ACCEPT_PERMISSIONS: Readonly<Record<string, ProjectRole>> = {
  read: 'reader',
  edit: 'writer',
  write: 'writer',
  owner: 'owner',
};

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
): Promise<{ items: AccessRequest[]; count: number }> {
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
  caller: User | null,
  query: AccessRequestListQuery,
): Promise<{ items: AccessRequest[]; count: number }> {
  assertSignedIn(caller);
  return page(ctx, query, { requestedBy: caller.id });
}

/** GET /app/project/access-request/:namespace: requests for the workspace's projects. */
export async function listWorkspaceAccessRequests(
  ctx: AppContext,
  caller: User | null,
  namespace: string,
  query: AccessRequestListQuery,
): Promise<{ items: AccessRequest[]; count: number }> {
  assertSignedIn(caller);
  const target = await workspaceFor(ctx, caller, namespace);
  if (!target || !canAdministerWorkspace(target.role)) {
    throw forbidden(NO_ACCESS_REQUEST_LIST_PERMISSION);
  }
  return page(ctx, query, { workspaceId: target.workspace.id });
}

/**
 * POST /app/project/access-request/{namespace}/{project}: a pending request, expiring in
 * ACCESS_REQUEST_TTL_DAYS. An expired pending request does not block a new one (it is
 * marked expired). The project's owners and the superusers are told by mail.
 */
export async function createAccessRequest(
  ctx: AppContext,
  caller: User | null,
  namespace: string,
  projectName: string,
): Promise<void> {
  assertSignedIn(caller);
  const db = ctx.database.db;
  const access = await projectFor(ctx, caller, { namespace, name: projectName }, null);
  const project = access.project;
  if (access.directRole !== null) throw new HttpProblem(409, ALREADY_HAS_ACCESS);

  const now = ctx.now();
  try {
    await db.transaction(async (tx) => {
      const pending = await findPendingRequest(tx, project.id, caller.id);
      if (pending && !isExpired({ expiresAt: pending.expiresAt, status: null }, now)) {
        throw new HttpProblem(409, ACCESS_REQUEST_EXISTS);
      }
      if (pending) await markRequestExpired(tx, pending.id);
      await insertAccessRequest(tx, {
        projectId: project.id,
        requestedBy: caller.id,
        requestedAt: now,
        expiresAt: new Date(now.getTime() + ACCESS_REQUEST_TTL_DAYS * 24 * 3600 * 1000),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpProblem(409, ACCESS_REQUEST_EXISTS);
    throw error;
  }

  const workspaceName = access.workspace.name;
  const projectPath = `${workspaceName}/${project.name}`;
  const url = `${ctx.config.baseUrl}/projects/${encodeURIComponent(workspaceName)}/${encodeURIComponent(project.name)}/collaborators`;
  const owners = await findProjectOwnersToNotify(db, project.id);
  for (const owner of owners.filter((o) => o.id !== caller.id)) {
    await deliver(
      ctx.mailer,
      ctx.log,
      accessRequestMessage(owner.email, owner.username, caller.username, projectPath, url),
    );
  }
}

/**
 * An unresolved request by id (path text), with the caller's rights on its project; 404 for
 * an id that is not a number, an unknown or resolved request, or a project scheduled for
 * deletion.
 */
async function openRequest(ctx: AppContext, caller: User, idText: string) {
  const id = idOf(idText);
  const request = id === null ? null : await findAccessRequestById(ctx.database.db, id);
  if (!request || (request.status !== null && request.status !== 'expired')) throw notFound();
  const access = await projectFor(ctx, caller, { id: request.projectId }, null);
  return { request, access };
}

/** The accept body's `permissions`, or the reference's form errors. */
export function acceptedRole(permissions: unknown): ProjectRole {
  if (permissions === undefined || permissions === null || permissions === '') {
    throw new FormError(400, { permissions: ['This field is required.'] });
  }
  const role = typeof permissions === 'string' ? ACCEPT_PERMISSIONS[permissions] : undefined;
  if (!role || !Object.hasOwn(ACCEPT_PERMISSIONS, permissions as string)) {
    throw new FormError(400, { permissions: [NOT_A_VALID_CHOICE] });
  }
  return role;
}

/**
 * POST /app/project/access-request/accept/{id}: somebody with owner's rights on the project
 * gives the requester the chosen role; an expired request cannot be accepted (409).
 */
export async function acceptAccessRequest(
  ctx: AppContext,
  caller: User | null,
  idText: string,
  permissions: unknown,
): Promise<void> {
  assertSignedIn(caller);
  const role = acceptedRole(permissions);
  const { request, access } = await openRequest(ctx, caller, idText);
  if (!canOwn(access.permissions)) throw forbidden(NO_ACCESS_REQUEST_ACCEPT_PERMISSION);
  const now = ctx.now();
  if (isExpired(request, now)) throw new HttpProblem(409, ACCESS_REQUEST_EXPIRED);
  await ctx.database.db.transaction(async (tx) => {
    const resolved = await resolveAccessRequest(tx, request.id, {
      status: 'accepted',
      resolvedBy: caller.id,
      resolvedAt: now,
      permission: role,
    });
    if (!resolved) throw notFound();
    await upsertProjectMembers(tx, access.project.id, [{ userId: request.requestedBy, role }]);
    await recordAudit(ctx, tx, {
      action: 'project.access_request_accepted',
      ...projectScope(access),
      target: {
        type: 'user',
        id: request.requestedBy,
        name: await usernameOf(tx, request.requestedBy),
      },
      details: { request_id: request.id, role },
    });
  });
}

/**
 * DELETE /app/project/access-request/{id}: the requester cancels, or somebody with owner's
 * rights declines (expired requests too); the request is marked declined.
 */
export async function removeAccessRequest(
  ctx: AppContext,
  caller: User | null,
  idText: string,
): Promise<void> {
  assertSignedIn(caller);
  const { request, access } = await openRequest(ctx, caller, idText);
  if (!canRemoveAccessRequest(caller, access.permissions, request.requestedBy)) {
    throw forbidden(NO_ACCESS_REQUEST_REMOVE_PERMISSION);
  }
  await ctx.database.db.transaction(async (tx) => {
    const resolved = await resolveAccessRequest(tx, request.id, {
      status: 'declined',
      resolvedBy: caller.id,
      resolvedAt: ctx.now(),
    });
    if (!resolved) throw notFound();
    // The requester withdrawing their own request decides nothing: not audited.
    if (caller.id === request.requestedBy) return;
    await recordAudit(ctx, tx, {
      action: 'project.access_request_declined',
      ...projectScope(access),
      target: {
        type: 'user',
        id: request.requestedBy,
        name: await usernameOf(tx, request.requestedBy),
      },
      details: { request_id: request.id },
    });
  });
}
