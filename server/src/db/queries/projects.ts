/** SQL for projects: lookup, creation and the paginated list. */
import { and, asc, desc, eq, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../database';
import {
  projectFiles,
  projectMembers,
  projects,
  projectVersions,
  uploads,
  users,
  workspaceMembers,
  workspaces,
  type Project,
  type ProjectRole,
  type Workspace,
  type WorkspaceRole,
} from '../schema';

/**
 * The reference's conflict-file pattern (copied verbatim, unescaped `.qgz` included): a
 * project "has a conflict" when a current file path matches it.
 */
export const CONFLICT_FILE_PATTERN = String.raw`(\.gpkg|\.qgs|.qgz)(.*conflict.*)|( \(.*conflict.*)`;

/** Exact (case-sensitive) name within a workspace, removed projects included. */
export async function findProjectByName(
  db: Executor,
  workspaceId: number,
  name: string,
): Promise<Project | null> {
  const rows = await db
    .select()
    .from(projects)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.name, name)))
    .limit(1);
  return rows[0] ?? null;
}

/** A new empty project at version v0 (a v0 version row without files). */
export async function insertProjectWithInitialVersion(
  db: Executor,
  values: {
    workspaceId: number;
    name: string;
    public: boolean;
    creatorId: number;
    at: Date;
    userAgent: string | null;
    ip: string | null;
    deviceId: string | null;
  },
): Promise<Project> {
  const [project] = await db
    .insert(projects)
    .values({
      workspaceId: values.workspaceId,
      name: values.name,
      public: values.public,
      creatorId: values.creatorId,
      createdAt: values.at,
      updatedAt: values.at,
      latestVersion: 0,
      diskUsage: 0,
    })
    .returning();
  await db.insert(projectVersions).values({
    projectId: project!.id,
    name: 0,
    authorId: values.creatorId,
    createdAt: values.at,
    userAgent: values.userAgent,
    ip: values.ip,
    deviceId: values.deviceId,
    projectSize: 0,
    changes: { added: 0, updated: 0, updated_diff: 0, removed: 0 },
  });
  return project!;
}

export type ProjectSortColumn =
  | 'name'
  | 'created'
  | 'updated'
  | 'disk_usage'
  | 'namespace'
  | 'creator_id'
  | 'workspace_id'
  | 'public'
  | 'latest_version'
  | 'removed_at'
  | 'locked_until'
  | 'id';

/** Which projects to list; see ProjectListScope in services/permissions.ts. */
export type ProjectScopeFilter =
  | { kind: 'all' }
  | { kind: 'public' }
  | { kind: 'member'; userId: number; readableWorkspaceIds: number[]; includePublic: boolean };

export interface ProjectListFilter {
  scope: ProjectScopeFilter;
  /** Whose direct role to return with each row (null: anonymous). */
  viewerId: number | null;
  /** Case-insensitive substring of the project name. */
  nameContains?: string;
  /** Workspace names (case-insensitive); each given one must match. */
  workspaceNames?: string[];
  updatedSince?: Date;
  /** `created`: made by the user; `shared`: not made by them but readable for them. */
  flag?:
    | { kind: 'created'; userId: number }
    | { kind: 'shared'; userId: number; readableWorkspaceIds: number[] };
  order: { column: ProjectSortColumn; descending: boolean }[];
  limit: number;
  offset: number;
}

export interface ProjectListRow {
  id: string;
  name: string;
  workspaceId: number;
  workspaceName: string;
  public: boolean;
  creatorId: number | null;
  createdAt: Date;
  updatedAt: Date;
  latestVersion: number;
  diskUsage: number;
  tags: string[];
  removedAt: Date | null;
  hasConflict: boolean;
  viewerRole: ProjectRole | null;
  /** Direct members by user id (the access lists). */
  members: ProjectMemberRow[];
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function memberOf(userId: number): SQL {
  return sql`exists (select 1 from ${projectMembers} where ${projectMembers.projectId} = ${projects.id} and ${projectMembers.userId} = ${userId})`;
}

function inWorkspaces(ids: number[]): SQL | undefined {
  return ids.length > 0 ? inArray(projects.workspaceId, ids) : undefined;
}

function scopeCondition(scope: ProjectScopeFilter): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'public':
      return and(
        eq(projects.public, true),
        isNull(projects.removedAt),
        eq(workspaces.active, true),
      );
    case 'member':
      return and(
        isNull(projects.removedAt),
        eq(workspaces.active, true),
        or(
          scope.includePublic ? eq(projects.public, true) : undefined,
          inWorkspaces(scope.readableWorkspaceIds),
          memberOf(scope.userId),
        ),
      );
  }
}

/** Sort expressions; names sort case-insensitively, byte-wise, on every database. */
const SORT_EXPRESSIONS: Record<ProjectSortColumn, SQL[]> = {
  name: [sql`lower(${projects.name}) collate "C"`, sql`${projects.name} collate "C"`],
  namespace: [sql`lower(${workspaces.name}) collate "C"`],
  created: [sql`${projects.createdAt}`],
  updated: [sql`${projects.updatedAt}`],
  disk_usage: [sql`${projects.diskUsage}`],
  creator_id: [sql`${projects.creatorId}`],
  workspace_id: [sql`${projects.workspaceId}`],
  public: [sql`${projects.public}`],
  latest_version: [sql`${projects.latestVersion}`],
  removed_at: [sql`${projects.removedAt}`],
  locked_until: [sql`${projects.lockedUntil}`],
  id: [sql`${projects.id}`],
};

/** True when the project's current files include a conflict copy (CONFLICT_FILE_PATTERN). */
function conflictFileExists(projectId: SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${projectFiles} where ${projectFiles.projectId} = ${projectId} and ${projectFiles.path} ~ ${CONFLICT_FILE_PATTERN})`;
}

/** Whether one project has a conflict copy among its current files (the list's has_conflict). */
export async function projectHasConflictFile(db: Executor, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ found: conflictFileExists(sql`${projects.id}`) })
    .from(projects)
    .where(eq(projects.id, projectId));
  return row?.found === true;
}

/** One page of projects and the total number matching. */
export async function listProjectsPage(
  db: Executor,
  filter: ProjectListFilter,
): Promise<{ rows: ProjectListRow[]; total: number }> {
  const viewer = alias(projectMembers, 'viewer_member');
  const conditions: (SQL | undefined)[] = [scopeCondition(filter.scope)];
  if (filter.nameContains) {
    // `lower(…) like lower(…)` rather than ILIKE, so projects_name_trgm_idx serves it.
    conditions.push(sql`lower(${projects.name}) like lower(${likePattern(filter.nameContains)})`);
  }
  for (const name of filter.workspaceNames ?? []) {
    conditions.push(sql`lower(${workspaces.name}) = lower(${name})`);
  }
  if (filter.updatedSince) conditions.push(gte(projects.updatedAt, filter.updatedSince));
  if (filter.flag?.kind === 'created') {
    conditions.push(eq(projects.creatorId, filter.flag.userId));
  } else if (filter.flag?.kind === 'shared') {
    conditions.push(
      sql`${projects.creatorId} is distinct from ${filter.flag.userId}`,
      or(inWorkspaces(filter.flag.readableWorkspaceIds), memberOf(filter.flag.userId)),
    );
  }

  const orderBy: SQL[] = [];
  for (const term of filter.order) {
    for (const expression of SORT_EXPRESSIONS[term.column]) {
      orderBy.push(term.descending ? desc(expression) : asc(expression));
    }
  }
  orderBy.push(asc(projects.id));

  // One statement: the page, its access lists and the total. Correlated subqueries in the
  // select list (conflict flag, members) run only for the page's rows: PostgreSQL evaluates
  // costly output expressions after the top-N sort and LIMIT. The total is an uncorrelated
  // subquery (an InitPlan, run once, and only when the page has a row); a window count
  // would make the database build every matching row before the LIMIT instead.
  const rows = await db
    .select({
      id: projects.id,
      name: projects.name,
      workspaceId: projects.workspaceId,
      workspaceName: workspaces.name,
      public: projects.public,
      creatorId: projects.creatorId,
      createdAt: projects.createdAt,
      updatedAt: projects.updatedAt,
      latestVersion: projects.latestVersion,
      diskUsage: projects.diskUsage,
      tags: projects.tags,
      removedAt: projects.removedAt,
      hasConflict: conflictFileExists(sql`${projects.id}`),
      viewerRole: viewer.role,
      members: sql<
        [number, string, ProjectRole][]
      >`coalesce((select json_agg(json_build_array(${projectMembers.userId}, ${users.username}, ${projectMembers.role}) order by ${projectMembers.userId}) from ${projectMembers} inner join ${users} on ${users.id} = ${projectMembers.userId} where ${projectMembers.projectId} = ${projects.id}), '[]'::json)`,
      // Inside the subquery "projects" and "workspaces" name its own FROM items, so the
      // same conditions count the whole match.
      total:
        sql<number>`(select count(*) from ${projects} inner join ${workspaces} on ${workspaces.id} = ${projects.workspaceId} where ${and(...conditions) ?? sql`true`})`.mapWith(
          Number,
        ),
    })
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .leftJoin(
      viewer,
      and(eq(viewer.projectId, projects.id), eq(viewer.userId, filter.viewerId ?? -1)),
    )
    .where(and(...conditions))
    .orderBy(...orderBy)
    .limit(filter.limit)
    .offset(filter.offset);

  const total =
    rows.length > 0
      ? rows[0]!.total
      : filter.offset === 0
        ? 0
        : await countProjects(db, conditions);
  return {
    rows: rows.map(({ total: _total, members, ...row }) => ({
      ...row,
      members: members.map(([userId, username, role]) => ({
        projectId: row.id,
        userId,
        username,
        role,
      })),
    })),
    total,
  };
}

async function countProjects(db: Executor, conditions: (SQL | undefined)[]): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .where(and(...conditions));
  return rows[0]?.n ?? 0;
}

export interface ProjectMemberRow {
  projectId: string;
  userId: number;
  username: string;
  role: ProjectRole;
}

/** Direct members of the given projects, by user id. */
export async function listProjectMembers(
  db: Executor,
  projectIds: string[],
): Promise<ProjectMemberRow[]> {
  if (projectIds.length === 0) return [];
  return db
    .select({
      projectId: projectMembers.projectId,
      userId: projectMembers.userId,
      username: users.username,
      role: projectMembers.role,
    })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(inArray(projectMembers.projectId, projectIds))
    .orderBy(asc(projectMembers.userId));
}

/** Removes every project membership of a user (closing the account). */
export async function deleteUserProjectMemberships(db: Executor, userId: number): Promise<void> {
  await db.delete(projectMembers).where(eq(projectMembers.userId, userId));
}

// ---------------------------------------------------------------------------------------
// One project, with what a permission check needs

export interface ProjectLookupRow {
  workspace: Workspace;
  /** Null when the workspace exists but has no project of that name. */
  project: Project | null;
  /** The viewer's direct project role. */
  directRole: ProjectRole | null;
  /** The viewer's explicit workspace membership role. */
  memberRole: WorkspaceRole | null;
}

const lookupColumns = {
  workspace: workspaces,
  project: projects,
  directRole: projectMembers.role,
  memberRole: workspaceMembers.role,
};

/** Joins the viewer's direct project role (none for anonymous viewers). */
function directRoleOf(viewerId: number | null): SQL | undefined {
  return and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, viewerId ?? -1));
}

/** Joins the viewer's explicit workspace role (none for anonymous viewers). */
function memberRoleOf(viewerId: number | null): SQL | undefined {
  return and(
    eq(workspaceMembers.workspaceId, workspaces.id),
    eq(workspaceMembers.userId, viewerId ?? -1),
  );
}

/**
 * The project `name` of the workspace named `namespace` (case-insensitively), removed or
 * not, with `viewerId`'s roles. Null when the workspace does not exist.
 */
export async function findProjectByPath(
  db: Executor,
  namespace: string,
  name: string,
  viewerId: number | null,
): Promise<ProjectLookupRow | null> {
  const rows = await db
    .select(lookupColumns)
    .from(workspaces)
    .leftJoin(projects, and(eq(projects.workspaceId, workspaces.id), eq(projects.name, name)))
    .leftJoin(projectMembers, directRoleOf(viewerId))
    .leftJoin(workspaceMembers, memberRoleOf(viewerId))
    .where(sql`lower(${workspaces.name}) = lower(${namespace})`)
    .limit(1);
  return rows[0] ?? null;
}

/** The project with this id (a valid uuid), removed or not, with `viewerId`'s roles. */
export async function findProjectById(
  db: Executor,
  id: string,
  viewerId: number | null,
): Promise<ProjectLookupRow | null> {
  const rows = await db
    .select(lookupColumns)
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .leftJoin(projectMembers, directRoleOf(viewerId))
    .leftJoin(workspaceMembers, memberRoleOf(viewerId))
    .where(eq(projects.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** Transaction ids of the project's running uploads. */
export async function listUploadIds(db: Executor, projectId: string): Promise<string[]> {
  const rows = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(eq(uploads.projectId, projectId))
    .orderBy(asc(uploads.createdAt));
  return rows.map((row) => row.id);
}

/** Inserts a project row only (no version): commitVersion then makes v1. */
export async function insertProject(
  db: Executor,
  values: typeof projects.$inferInsert,
): Promise<Project> {
  const rows = await db.insert(projects).values(values).returning();
  return rows[0]!;
}

export async function setProjectPublic(
  db: Executor,
  projectId: string,
  isPublic: boolean,
): Promise<void> {
  await db.update(projects).set({ public: isPublic }).where(eq(projects.id, projectId));
}

/** Marks a live project as scheduled for deletion; false when it already was (or is gone). */
export async function markProjectRemoved(
  db: Executor,
  projectId: string,
  by: number,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(projects)
    .set({ removedAt: at, removedBy: by })
    .where(and(eq(projects.id, projectId), isNull(projects.removedAt)))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/** Sets (upserts) direct project roles. */
export async function upsertProjectMembers(
  db: Executor,
  projectId: string,
  members: { userId: number; role: ProjectRole }[],
): Promise<void> {
  if (members.length === 0) return;
  await db
    .insert(projectMembers)
    .values(members.map((m) => ({ projectId, userId: m.userId, role: m.role })))
    .onConflictDoUpdate({
      target: [projectMembers.projectId, projectMembers.userId],
      set: { role: sql`excluded.role` },
    });
}

export async function deleteProjectMembers(
  db: Executor,
  projectId: string,
  userIds: number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), inArray(projectMembers.userId, userIds)));
}

/** Disk usage of the workspace's projects that are not scheduled for deletion. */
/**
 * What counts against a workspace's storage allowance: the bytes its live projects keep in
 * the blob store, every version (projects.stored_bytes; services/file-store/README.md).
 */
export async function workspaceDiskUsage(db: Executor, workspaceId: number): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`coalesce(sum(${projects.storedBytes}), 0)`.mapWith(Number) })
    .from(projects)
    .where(and(eq(projects.workspaceId, workspaceId), isNull(projects.removedAt)));
  return rows[0]?.n ?? 0;
}

export interface TemplateRow {
  id: string;
  name: string;
  namespace: string;
  latestVersion: number;
}

/** Live projects created by the user named exactly `creatorUsername`. */
export async function listProjectsByCreatorName(
  db: Executor,
  creatorUsername: string,
): Promise<TemplateRow[]> {
  return db
    .select({
      id: projects.id,
      name: projects.name,
      namespace: workspaces.name,
      latestVersion: projects.latestVersion,
    })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.creatorId))
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .where(and(eq(users.username, creatorUsername), isNull(projects.removedAt)))
    .orderBy(sql`lower(${projects.name}) collate "C"`, asc(projects.id));
}
