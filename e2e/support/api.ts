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
