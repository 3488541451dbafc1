/**
 * Route guards (spec 000 §2 "Route guards"), used in beforeLoad. Each one reads the session from
 * GET /app/init through the query cache, so navigating does not refetch it.
 */
import { redirect } from '@tanstack/react-router';
import { initQueryOptions, type InitData } from '@/features/auth/api/init';
import { DEFAULT_AFTER_LOGIN } from '@/lib/redirect';
import type { RouterContext } from './routerContext';

export interface GuardArgs {
  context: RouterContext;
  location: { href: string };
}

export function loadSession(context: RouterContext): Promise<InitData> {
  return context.queryClient.ensureQueryData(initQueryOptions);
}

/** Login needed: anonymous visitors go to /login with the wanted path (and search) as redirect. */
export async function requireLogin({ context, location }: GuardArgs): Promise<InitData> {
  const session = await loadSession(context);
  if (!session.authenticated) {
    throw redirect({ to: '/login/{-$reset}', search: { redirect: location.href } });
  }
  return session;
}

/** Admin screens: anyone who is not a superuser goes to /login. */
export async function requireSuperuser({ context }: GuardArgs): Promise<InitData> {
  const session = await loadSession(context);
  if (!session.superuser) {
    throw redirect({ to: '/login/{-$reset}' });
  }
  return session;
}

/** The sign-in pages: a logged-in user goes to the dashboard. */
export async function redirectIfLoggedIn({ context }: GuardArgs): Promise<InitData> {
  const session = await loadSession(context);
  if (session.authenticated) {
    throw redirect({ to: DEFAULT_AFTER_LOGIN });
  }
  return session;
}

/** '/': the dashboard when logged in, else the sign-in page. */
export async function redirectHome({ context }: GuardArgs): Promise<never> {
  const session = await loadSession(context);
  if (session.authenticated) throw redirect({ to: DEFAULT_AFTER_LOGIN });
  throw redirect({ to: '/login/{-$reset}' });
}
