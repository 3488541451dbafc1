/** Queries of read-only view links and their uses (schema.ts viewLinks, viewLinkUses). */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { users, viewLinks, viewLinkUses, type ViewLink } from '../schema';

export async function insertViewLink(
  db: Executor,
  values: {
    projectId: string;
    label: string;
    salt: string;
    createdBy: number;
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<ViewLink> {
  const [row] = await db.insert(viewLinks).values(values).returning();
  return row!;
}

export async function findViewLink(db: Executor, id: number): Promise<ViewLink | null> {
  const [row] = await db.select().from(viewLinks).where(eq(viewLinks.id, id));
  return row ?? null;
}

export interface ViewLinkRow extends ViewLink {
  creator: string | null;
  uses: number;
  lastUsedAt: Date | null;
}

/** A project's links, newest first, with their makers' usernames and their uses. */
export async function listViewLinks(db: Executor, projectId: string): Promise<ViewLinkRow[]> {
  const uses = db
    .select({
      linkId: viewLinkUses.linkId,
      count: sql<number>`count(*)`.mapWith(Number).as('count'),
      last: sql<Date>`max(${viewLinkUses.usedAt})`.as('last'),
    })
    .from(viewLinkUses)
    .groupBy(viewLinkUses.linkId)
    .as('uses');
  const rows = await db
    .select({ link: viewLinks, creator: users.username, uses: uses.count, last: uses.last })
    .from(viewLinks)
    .leftJoin(users, eq(users.id, viewLinks.createdBy))
    .leftJoin(uses, eq(uses.linkId, viewLinks.id))
    .where(eq(viewLinks.projectId, projectId))
    .orderBy(desc(viewLinks.createdAt), desc(viewLinks.id));
  return rows.map((row) => ({
    ...row.link,
    creator: row.creator,
    uses: Number(row.uses ?? 0),
    lastUsedAt: row.last ? new Date(row.last) : null,
  }));
}

/** Revokes a link of the project (kept as revoked); false when the project has no such link. */
export async function revokeViewLink(
  db: Executor,
  projectId: string,
  id: number,
  by: number,
  at: Date,
): Promise<boolean> {
  const link = await db
    .select({ revokedAt: viewLinks.revokedAt })
    .from(viewLinks)
    .where(and(eq(viewLinks.id, id), eq(viewLinks.projectId, projectId)));
  if (link.length === 0) return false;
  if (link[0]!.revokedAt === null) {
    await db
      .update(viewLinks)
      .set({ revokedAt: at, revokedBy: by })
      .where(and(eq(viewLinks.id, id), eq(viewLinks.projectId, projectId)));
  }
  return true;
}

export async function insertViewLinkUse(
  db: Executor,
  values: {
    linkId: number;
    usedAt: Date;
    userId: number | null;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await db.insert(viewLinkUses).values(values);
}

/** The newest uses of a link. */
export async function listViewLinkUses(db: Executor, linkId: number, limit: number) {
  return db
    .select({
      usedAt: viewLinkUses.usedAt,
      username: users.username,
      ip: viewLinkUses.ip,
      userAgent: viewLinkUses.userAgent,
    })
    .from(viewLinkUses)
    .leftJoin(users, eq(users.id, viewLinkUses.userId))
    .where(eq(viewLinkUses.linkId, linkId))
    .orderBy(desc(viewLinkUses.usedAt), desc(viewLinkUses.id))
    .limit(limit);
}
