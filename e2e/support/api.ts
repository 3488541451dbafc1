// Calls the real API with the page's own session (cookies and CSRF token), for setting up
// data that has no screen yet.
import { expect, type Page } from '@playwright/test';

export async function createProject(page: Page, namespace: string, name: string, isPublic = false) {
  const status = await page.evaluate(
    async ([namespace, name, isPublic]) => {
      const token = (await fetch('/app/init')).headers.get('x-csrf-token') ?? '';
      const response = await fetch(`/v1/project/${encodeURIComponent(namespace as string)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ name, public: isPublic }),
      });
      return response.status;
    },
    [namespace, name, isPublic] as const,
  );
  expect(status).toBe(200);
}

/** Replaces role lists of a project through PUT /v1/project/{namespace}/{name}. */
export async function shareProject(
  page: Page,
  namespace: string,
  name: string,
  access: { readersnames?: string[]; writersnames?: string[]; ownersnames?: string[] },
) {
  const status = await page.evaluate(
    async ([path, access]) => {
      const token = (await fetch('/app/init')).headers.get('x-csrf-token') ?? '';
      const response = await fetch(path as string, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ access }),
      });
      return response.status;
    },
    [`/v1/project/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`, access] as const,
  );
  expect(status).toBe(200);
}

/**
 * A read-only view link of a project, ending at `expiresAt`, made through
 * POST /app/project/view-links/{namespace}/{name} with the page's session; its token.
 */
export async function createViewLink(
  page: Page,
  namespace: string,
  name: string,
  expiresAt: Date,
  label: string,
): Promise<string> {
  const answer = await page.evaluate(
    async ([path, body]) => {
      const token = (await fetch('/app/init')).headers.get('x-csrf-token') ?? '';
      const response = await fetch(path as string, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { token?: string } };
    },
    [
      `/app/project/view-links/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
      { expires_at: expiresAt.toISOString(), label },
    ] as const,
  );
  expect(answer.status).toBe(201);
  return answer.body.token!;
}
