// Calls the real API with a session, for setting up data that a test does not test through
// its screens (or that has no screen). A session is anything with Playwright's `request`: a
// page or a browser context (their requests share the context's cookies, so a signed-in page
// needs no page loaded for them), or an `apiSession` without any browser.
import { expect, request as newRequest, type APIRequestContext } from '@playwright/test';
import { e2eAdmin, e2eBaseURL } from './env';

export interface Session {
  readonly request: APIRequestContext;
}

/** The CSRF token of the session (GET /app/init), which every mutating call needs. */
export async function csrfToken(session: Session): Promise<string> {
  const init = await session.request.get('/app/init');
  expect(init.ok(), `GET /app/init answered ${init.status()}`).toBe(true);
  return init.headers()['x-csrf-token'] ?? '';
}

/** Signs `session` in (POST /app/auth/login): its cookies now carry a session of its own. */
export async function signInSession(
  session: Session,
  login: string,
  password: string,
): Promise<void> {
  const answer = await session.request.post('/app/auth/login', {
    headers: { 'x-csrf-token': await csrfToken(session) },
    data: { login, password },
  });
  expect(answer.status(), `sign-in as ${login}: ${await answer.text()}`).toBe(200);
}

/**
 * A signed-in session without a browser (its own cookie jar), for seeding data another user or
 * device makes. Disposed by `dispose()`.
 */
export async function apiSession(
  user: { username: string; password: string } = e2eAdmin,
  baseURL = e2eBaseURL,
): Promise<Session & { dispose(): Promise<void> }> {
  const request = await newRequest.newContext({ baseURL });
  await signInSession({ request }, user.username, user.password);
  return { request, dispose: () => request.dispose() };
}

/** A JSON call with the session's CSRF token; its answer (status checked by the caller). */
async function send(
  session: Session,
  method: 'POST' | 'PUT',
  path: string,
  data: unknown,
): Promise<{ status: number; text: string }> {
  const response = await session.request.fetch(path, {
    method,
    headers: { 'x-csrf-token': await csrfToken(session) },
    data,
  });
  return { status: response.status(), text: await response.text() };
}

export async function createProject(
  session: Session,
  namespace: string,
  name: string,
  isPublic = false,
) {
  const answer = await send(session, 'POST', `/v1/project/${encodeURIComponent(namespace)}`, {
    name,
    public: isPublic,
  });
  expect(answer.status, answer.text).toBe(200);
}

/** Replaces role lists of a project through PUT /v1/project/{namespace}/{name}. */
export async function shareProject(
  session: Session,
  namespace: string,
  name: string,
  access: { readersnames?: string[]; writersnames?: string[]; ownersnames?: string[] },
) {
  const answer = await send(
    session,
    'PUT',
    `/v1/project/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
    { access },
  );
  expect(answer.status, answer.text).toBe(200);
}

/**
 * A read-only view link of a project, ending at `expiresAt`, made through
 * POST /app/project/view-links/{namespace}/{name} with the session; its token.
 */
export async function createViewLink(
  session: Session,
  namespace: string,
  name: string,
  expiresAt: Date,
  label: string,
): Promise<string> {
  const answer = await send(
    session,
    'POST',
    `/app/project/view-links/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
    { expires_at: expiresAt.toISOString(), label },
  );
  expect(answer.status, answer.text).toBe(201);
  return (JSON.parse(answer.text) as { token: string }).token;
}
