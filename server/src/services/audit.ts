/**
 * The audit log's one writer (issue 33): routes and services call `recordAudit` where the
 * action happens, inside the action's own transaction where there is one (pass the
 * transaction as `db`), so an entry exists exactly when the action took effect. The actor
 * and the address come from the request (lib/request-context.ts) unless given.
 *
 * Reading (workspace admins: their workspaces; the superuser: all), the CSV export and the
 * retention job are here too. No route changes or deletes an entry.
 */
import type { AppContext } from '../context';
import type { Executor, StatementPart } from '../db/database';
import {
  auditEntryInsert,
  insertAuditEntry,
  listAuditEntries,
  projectNames,
  purgeAuditEntries,
} from '../db/queries/audit-log';
import { findUserById } from '../db/queries/users';
import { listWorkspaceRoles } from '../db/queries/workspaces';
import type { AuditEntry as AuditRow, NewAuditEntry, User } from '../db/schema';
import { requestContext, type RequestActor } from '../lib/request-context';
import { forbidden } from '../errors';
import { actorWorkspaceRole, canAdministerWorkspace } from './permissions';
import {
  AUDIT_CSV_MAX_ROWS,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
} from '../schemas/audit';
import { AUDIT_PAGE_SIZE, type AuditAction } from '../schemas/audit-actions';

export interface AuditRecord {
  action: AuditAction;
  /** Who acted; default: the request's signed-in user. `null`: nobody (a failed sign-in). */
  actor?: RequestActor | null;
  workspace?: { id: number; name: string } | null;
  project?: { id: string; name: string; workspaceId?: number } | null;
  target?: { type: string; id?: string | number | null; name?: string | null } | null;
  details?: Record<string, unknown>;
}

/** Writes one entry (in `db`: the action's transaction where it has one). */
export async function recordAudit(
  ctx: Pick<AppContext, 'now'>,
  db: Executor,
  record: AuditRecord,
): Promise<void> {
  await insertAuditEntry(db, auditValues(ctx, record));
}

/**
 * The INSERT of one entry as SQL, for a statement that writes it with the action's own rows
 * (a version's, services/versions.ts): the same row recordAudit writes.
 */
export function auditInsert(
  ctx: Pick<AppContext, 'now'>,
  db: Executor,
  record: AuditRecord,
): StatementPart {
  return auditEntryInsert(db, auditValues(ctx, record));
}

function auditValues(ctx: Pick<AppContext, 'now'>, record: AuditRecord): NewAuditEntry {
  const request = requestContext();
  const actor = record.actor === undefined ? (request?.actor ?? null) : record.actor;
  return {
    at: ctx.now(),
    action: record.action,
    actorId: actor?.id ?? null,
    actorName: actor?.username ?? null,
    ip: request?.ip ?? null,
    workspaceId: record.workspace?.id ?? record.project?.workspaceId ?? null,
    workspaceName: record.workspace?.name ?? null,
    projectId: record.project?.id ?? null,
    projectName: record.project?.name ?? null,
    targetType: record.target?.type ?? null,
    targetId: record.target?.id == null ? null : String(record.target.id),
    targetName: record.target?.name ?? null,
    details: {
      ...(request?.tokenId ? { token_id: request.tokenId } : {}),
      ...record.details,
    },
  };
}

/** The actor of a user row. */
export const actorOf = (user: Pick<User, 'id' | 'username'>): RequestActor => ({
  id: user.id,
  username: user.username,
});

function view(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    action: row.action as AuditAction,
    actor: row.actorName,
    actor_id: row.actorId,
    ip: row.ip,
    workspace_id: row.workspaceId,
    workspace: row.workspaceName,
    project_id: row.projectId,
    project: row.projectName,
    target_type: row.targetType,
    target_id: row.targetId,
    target: row.targetName,
    details: row.details ?? {},
  };
}

/** The workspaces whose entries `user` reads; undefined: all (the superuser). */
async function readableWorkspaces(
  ctx: AppContext,
  user: User,
): Promise<{ id: number; name: string }[] | undefined> {
  if (user.isAdmin) return undefined;
  const workspaces = (await listWorkspaceRoles(ctx.database.db, user.id))
    .filter(
      (w) =>
        w.active &&
        canAdministerWorkspace(actorWorkspaceRole(ctx.config, user, w.name, w.memberRole)),
    )
    .map((w) => ({ id: w.id, name: w.name }));
  if (workspaces.length === 0) throw forbidden();
  return workspaces;
}

async function filterFor(ctx: AppContext, user: User, query: AuditQuery) {
  const workspaces = await readableWorkspaces(ctx, user);
  let workspaceIds = workspaces?.map((w) => w.id);
  if (query.workspace_id !== undefined) {
    if (workspaceIds && !workspaceIds.includes(query.workspace_id)) throw forbidden();
    workspaceIds = [query.workspace_id];
  }
  return {
    workspaces,
    filter: {
      workspaceIds,
      actor: query.user?.trim() || undefined,
      action: query.action,
      project: query.project?.trim() || undefined,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    },
  };
}

/** A page of the entries `user` may read, newest first. */
export async function listAudit(
  ctx: AppContext,
  user: User,
  query: AuditQuery,
): Promise<AuditPage> {
  const { workspaces, filter } = await filterFor(ctx, user, query);
  const page = query.page ?? 1;
  const perPage = query.per_page ?? AUDIT_PAGE_SIZE;
  const { entries, total } = await listAuditEntries(ctx.database.db, filter, {
    offset: (page - 1) * perPage,
    limit: perPage,
  });
  return {
    entries: entries.map(view),
    total,
    page,
    per_page: perPage,
    workspaces:
      workspaces ??
      (await listWorkspaceRoles(ctx.database.db, user.id)).map((w) => ({ id: w.id, name: w.name })),
    superuser: user.isAdmin,
  };
}

const CSV_COLUMNS = [
  'time',
  'action',
  'user',
  'address',
  'workspace',
  'project',
  'target_type',
  'target_id',
  'target',
  'details',
] as const;

/** One CSV field: quoted when needed; a leading =, +, - or @ is defused for spreadsheets. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n']/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Every entry `user` may read that matches (the newest AUDIT_CSV_MAX_ROWS), as CSV. */
export async function auditCsv(ctx: AppContext, user: User, query: AuditQuery): Promise<string> {
  const { filter } = await filterFor(ctx, user, query);
  const { entries } = await listAuditEntries(ctx.database.db, filter, {
    offset: 0,
    limit: AUDIT_CSV_MAX_ROWS,
  });
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of entries) {
    lines.push(
      [
        row.at.toISOString(),
        row.action,
        row.actorName,
        row.ip,
        row.workspaceName ?? (row.workspaceId === null ? null : String(row.workspaceId)),
        row.projectName,
        row.targetType,
        row.targetId,
        row.targetName,
        row.details && Object.keys(row.details).length > 0 ? JSON.stringify(row.details) : null,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export const AUDIT_RETENTION_JOB = 'purge-old-audit-entries';

/** The retention job: deletes entries older than AUDIT_RETENTION_DAYS (0: keep all). */
export async function purgeOldAuditEntries(ctx: AppContext): Promise<void> {
  const days = ctx.config.auditRetentionDays;
  if (days <= 0) return;
  const before = new Date(ctx.now().getTime() - days * 24 * 3600 * 1000);
  const removed = await purgeAuditEntries(ctx.database.db, before);
  if (removed > 0)
    ctx.log.info({ removed }, `Removed ${removed} audit entries older than ${days} days`);
}

/** The project and workspace an entry is about, from a project's access (permissions/). */
export function projectScope(access: {
  project: { id: string; name: string; workspaceId: number };
  workspace: { id: number; name: string };
}): Pick<AuditRecord, 'project' | 'workspace'> {
  return {
    project: {
      id: access.project.id,
      name: access.project.name,
      workspaceId: access.project.workspaceId,
    },
    workspace: { id: access.workspace.id, name: access.workspace.name },
  };
}

/** A user's current username for an entry's target (null when the account is gone). */
export async function usernameOf(db: Executor, userId: number): Promise<string | null> {
  return (await findUserById(db, userId))?.username ?? null;
}

/** The project and workspace an entry is about, read by the project's id (in `db`). */
export async function projectScopeById(
  db: Executor,
  projectId: string,
): Promise<Pick<AuditRecord, 'project' | 'workspace'>> {
  const row = await projectNames(db, projectId);
  if (!row) return { project: { id: projectId, name: '' } };
  return {
    project: { id: row.id, name: row.name, workspaceId: row.workspaceId },
    workspace: { id: row.workspaceId, name: row.workspaceName },
  };
}
