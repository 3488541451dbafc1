/**
 * The login check of every "auth: login" service: 401 with the reference's JSON string.
 * Routes in a `signedIn` scope (plugins/auth.ts) are refused before their handler; a service
 * that takes `caller: User | null` checks with `assertSignedIn(caller)` and goes on with
 * `caller` as a User.
 */
import type { User } from '../../db/schema';
import { authRequired } from '../../errors';

/** The caller is signed in with an active account; otherwise 401. */
export function assertSignedIn(caller: User | null): asserts caller is User {
  if (!caller?.active) throw authRequired();
}
