/** The login check of every "auth: login" service: 401 with the reference's JSON string. */
import type { User } from '../../db/schema';
import { authRequired } from '../../errors';

/** The caller, when signed in with an active account; otherwise 401. */
export function requireUser(caller: User | null): User {
  if (!caller?.active) throw authRequired();
  return caller;
}

/** requireUser as a type assertion, for code that keeps using its own variable. */
export function assertSignedIn(caller: User | null): asserts caller is User {
  requireUser(caller);
}
