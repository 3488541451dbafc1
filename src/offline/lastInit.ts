/**
 * The last session answer (GET /app/init) this browser got, so the app can still start when the
 * server is unreachable (offline, served by the service worker): it opens as the visitor last
 * known, or anonymous if none. Only `authenticated` and `superuser` are kept; never a token.
 */

/** What is kept of a session answer: the fields of auth's InitData that say who starts the app. */
export interface LastInit {
  authenticated: boolean;
  superuser: boolean;
}

export const LAST_INIT_KEY = 'waymark.lastInit';

export function rememberInit(init: LastInit): void {
  try {
    localStorage.setItem(
      LAST_INIT_KEY,
      JSON.stringify({ authenticated: init.authenticated, superuser: init.superuser }),
    );
  } catch {
    // Storage full or disabled: starting offline then falls back to anonymous.
  }
}

export function lastInit(): LastInit | null {
  try {
    const raw = localStorage.getItem(LAST_INIT_KEY);
    if (raw === null) return null;
    const data = JSON.parse(raw) as Partial<LastInit> | null;
    return {
      authenticated: data?.authenticated === true,
      superuser: data?.superuser === true,
    };
  } catch {
    return null;
  }
}
