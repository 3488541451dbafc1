/** SQL for projects: lookup, creation and the paginated list. */
import { and, asc, desc, eq, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../database';
import {
  projectFiles,
  projectMembers,
  projects,
  projectVersions,
  users,
  workspaces,
  type Project,
  type ProjectRole,
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
    changes: { added: [], updated: [], removed: [] },
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

/** One page of projects and the total number matching. */
export async function listProjectsPage(
  db: Executor,
  filter: ProjectListFilter,
): Promise<{ rows: ProjectListRow[]; total: number }> {
  const viewer = alias(projectMembers, 'viewer_member');
  const conditions: (SQL | undefined)[] = [scopeCondition(filter.scope)];
  if (filter.nameContains) {
    conditions.push(sql`${projects.name} ilike ${likePattern(filter.nameContains)}`);
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
      hasConflict: sql<boolean>`exists (select 1 from ${projectFiles} where ${projectFiles.projectId} = ${projects.id} and ${projectFiles.path} ~ ${CONFLICT_FILE_PATTERN})`,
      viewerRole: viewer.role,
      total: sql<number>`count(*) over ()`.mapWith(Number),
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

  const total = rows[0]?.total ?? (filter.offset === 0 ? 0 : await countProjects(db, conditions));
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
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
