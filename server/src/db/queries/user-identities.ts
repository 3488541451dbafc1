/** SQL for the links between users and their OpenID Connect identities (issuer, subject). */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../database';
import { userIdentities, users, type User } from '../schema';

/** The user linked to the provider's subject, or null. */
export async function findLinkedUser(
  db: Executor,
  issuer: string,
  subject: string,
): Promise<User | null> {
  const [row] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
  return row?.user ?? null;
}

/** Links the user to the provider's subject (a link already there stays). */
export async function linkIdentity(
  db: Executor,
  userId: number,
  issuer: string,
  subject: string,
  at: Date,
): Promise<void> {
  await db
    .insert(userIdentities)
    .values({ userId, issuer, subject, createdAt: at, lastUsedAt: at })
    .onConflictDoNothing();
}

/** Marks the identity used at `at`. */
export async function touchIdentity(
  db: Executor,
  issuer: string,
  subject: string,
  at: Date,
): Promise<void> {
  await db
    .update(userIdentities)
    .set({ lastUsedAt: at })
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
}
