// Workspace steps shared by the workspace specs: switching through the profile menu, and
// inviting by email through the real API with the page's own session.
import { expect, type Page } from '@playwright/test';

/** Chooses `workspace` (where the user is owner) in the profile menu's switcher. */
export async function switchTo(page: Page, workspace: string, role = 'owner') {
  const profile = page.getByRole('banner').getByRole('button', { name: /^Profile menu/ });
  await profile.click();
  await page.getByRole('menuitem', { name: new RegExp(`^${workspace} ${role}$`) }).click();
  await expect(profile).toContainText(workspace);
}

/** Invites `email` into `workspace` with `role` (POST /v2/workspaces/{id}/invitations). */
export async function inviteByEmail(page: Page, workspace: string, email: string, role: string) {
  const status = await page.evaluate(
    async ([workspace, email, role]) => {
      const token = (await fetch('/app/init')).headers.get('x-csrf-token') ?? '';
      const workspaces = (await (await fetch('/v1/workspaces')).json()) as {
        id: number;
        name: string;
      }[];
      const id = workspaces.find((w) => w.name === workspace)!.id;
      const response = await fetch(`/v2/workspaces/${id}/invitations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ email, role }),
      });
      return response.status;
    },
    [workspace, email, role] as const,
  );
  expect(status).toBe(201);
}
