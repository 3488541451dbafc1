/**
 * Who is calling and from where, for the whole of one request (AsyncLocalStorage): the
 * audit log (services/audit.ts) reads it, so a service records an entry without every
 * caller handing the request down. Set by plugins/auth.ts; empty outside a request (jobs,
 * the admin command line), where entries name no actor and no address unless given.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestActor {
  id: number;
  username: string;
}

export interface RequestContext {
  /** The request's address (request.ip: X-Forwarded-For only through a trusted proxy). */
  ip: string | null;
  /** The signed-in user, once the auth plugin has read the session or token. */
  actor: RequestActor | null;
  /** The personal access token the request came with (its id), if any. */
  tokenId: number | null;
  /**
   * The request changes nothing (GET, HEAD, OPTIONS): what it resolves once, such as the
   * caller's access to a project, holds for the whole request and is reused.
   */
  readOnly?: boolean;
  /**
   * Resolves once the request's answer is sent (or the request ended without one): work
   * the request starts in the background waits for it (lib/next-turn.ts).
   */
  answered?: Promise<void>;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` (the rest of a request) with this context. */
export function runWithRequestContext(context: RequestContext, fn: () => void): void {
  storage.run(context, fn);
}

/** The current request's context, or null outside a request. */
export function requestContext(): RequestContext | null {
  return storage.getStore() ?? null;
}
