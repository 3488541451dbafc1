/** Queries of the audit log (schema.ts auditLog): inserts, the filtered list, retention. */
import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database';
import { auditLog, projects, workspaces, type AuditEntry, type NewAuditEntry } from '../schema';

export async function insertAuditEntry(db: Executor, values: NewAuditEntry): Promise<void> {
  await db.insert(auditLog).values(values);
}

/** The INSERT of one entry, as SQL to run inside another statement (a WITH part). */
export function auditEntryInsert(db: Executor, values: NewAuditEntry): SQL {
  return db.insert(auditLog).values(values).getSQL();
}

export interface AuditFilter {
  /** Only entries of these workspaces (a workspace admin's); undefined: all (superuser). */
  workspaceIds?: number[];
  actor?: string;
  action?: string;
  project?: string;
  from?: Date;
  to?: Date;
}

function conditions(filter: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.workspaceIds) {
    parts.push(
      filter.workspaceIds.length === 0
        ? sql`false`
        : inArray(auditLog.workspaceId, filter.workspaceIds),
    );
  }
  if (filter.actor) parts.push(sql`lower(${auditLog.actorName}) = lower(${filter.actor})`);
  if (filter.action) parts.push(eq(auditLog.action, filter.action));
  if (filter.project) parts.push(sql`lower(${auditLog.projectName}) = lower(${filter.project})`);
  if (filter.from) parts.push(gte(auditLog.at, filter.from));
  if (filter.to) parts.push(lte(auditLog.at, filter.to));
  return parts.length > 0 ? and(...parts) : undefined;
}

/** A page of entries, newest first, and how many match. */
export async function listAuditEntries(
  db: Executor,
  filter: AuditFilter,
  page: { offset: number; limit: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  const where = conditions(filter);
  const [count] = await db
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(auditLog)
    .where(where);
  const entries = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .offset(page.offset)
    .limit(page.limit);
  return { entries, total: count?.total ?? 0 };
}

/** A project's name and its workspace, for an entry about it (removed projects too). */
export async function projectNames(
  db: Executor,
  projectId: string,
): Promise<{ id: string; name: string; workspaceId: number; workspaceName: string } | null> {
  const [row] = await db
    .select({
      id: projects.id,
      name: projects.name,
      workspaceId: projects.workspaceId,
      workspaceName: workspaces.name,
    })
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .where(eq(projects.id, projectId));
  return row ?? null;
}

/** Deletes entries older than `before`; how many. */
export async function purgeAuditEntries(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(auditLog)
    .where(lt(auditLog.at, before))
    .returning({ id: auditLog.id });
  return rows.length;
}
