/**
 * A stand-in for the server in unit tests: `fetch` is replaced by a function that answers from
 * handlers keyed by 'METHOD /path' (query strings ignored) and records every request.
 */
import { vi } from 'vitest';
import type { Profile } from '@contract/users';

export interface FakeRequest {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeHandler = (request: FakeRequest) => Response | Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function problem(detail: string, status: number): Response {
  return json({ detail, status, title: 'Error', type: 'about:blank' }, status);
}

/** An answer without a body (204 and 304 may not have one, not even an empty one). */
export function empty(status = 200): Response {
  return new Response(status === 204 || status === 304 ? null : '', { status });
}

export function fakeServer(handlers: Record<string, FakeHandler>) {
  const requests: FakeRequest[] = [];
  const routes = { ...handlers };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0] as string;
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // keep the raw text
      }
    }
    const request: FakeRequest = {
      method,
      path,
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body,
    };
    requests.push(request);
    const handler = routes[`${method} ${path}`];
    if (!handler) return problem('The requested URL was not found on the server.', 404);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** Adds or replaces a handler. */
    on(key: string, handler: FakeHandler) {
      routes[key] = handler;
    },
    calls(key: string): FakeRequest[] {
      return requests.filter((r) => `${r.method} ${r.path}` === key);
    },
  };
}

/** Handlers for a server with one signed-in (or anonymous) user. */
export function sessionHandlers(options: {
  authenticated: boolean;
  superuser?: boolean;
  profile?: Partial<Profile>;
  workspaces?: Array<Record<string, unknown>>;
  maintenance?: boolean;
}): Record<string, FakeHandler> {
  const profile: Profile = {
    id: 1,
    username: 'admin',
    email: 'admin@example.com',
    pending_email: null,
    name: 'Ada Admin',
    first_name: 'Ada',
    last_name: 'Admin',
    verified_email: true,
    registration_date: '2026-01-01T00:00:00Z',
    last_signed_in: null,
    can_edit_profile: true,
    receive_notifications: true,
    preferred_workspace: 1,
    workspaces: [{ id: 1, name: 'mergin', role: 'owner' }],
    invitations: [],
    ...options.profile,
  };
  const workspaces = options.workspaces ?? [
    { id: 1, name: 'mergin', role: 'owner', storage: 1000, disk_usage: 10, project_count: 0 },
  ];
  return {
    'GET /app/init': () =>
      json({ authenticated: options.authenticated, superuser: options.superuser ?? false }, 200, {
        'X-CSRF-Token': 'csrf-1',
      }),
    'GET /ping': () => json({ maintenance: options.maintenance ?? false, version: '2026.4.0' }),
    'GET /config': () =>
      json({
        docs_url: 'https://docs.example.com',
        global_read: false,
        global_write: false,
        global_admin: false,
      }),
    'GET /v1/user/profile': () =>
      options.authenticated
        ? json(profile)
        : json('Authentication information is missing or invalid.', 401),
    'GET /v1/workspaces': () => json(workspaces),
    'GET /v1/workspace/1': () => json(workspaces[0]),
  };
}
