// Workspace steps shared by the workspace specs: switching through the profile menu, and
// inviting by email through the real API with a session (support/api.ts).
import { expect, type Page } from '@playwright/test';
import { csrfToken, type Session } from './api';

/** Chooses `workspace` (where the user is owner) in the profile menu's switcher. */
export async function switchTo(page: Page, workspace: string, role = 'owner') {
  const profile = page.getByRole('banner').getByRole('button', { name: /^Profile menu/ });
  await profile.click();
  await page.getByRole('menuitem', { name: new RegExp(`^${workspace} ${role}$`) }).click();
  await expect(profile).toContainText(workspace);
}

/** Invites `email` into `workspace` with `role` (POST /v2/workspaces/{id}/invitations). */
export async function inviteByEmail(
  session: Session,
  workspace: string,
  email: string,
  role: string,
) {
  const workspaces = (await (await session.request.get('/v1/workspaces')).json()) as {
    id: number;
    name: string;
  }[];
  const id = workspaces.find((w) => w.name === workspace)!.id;
  const answer = await session.request.post(`/v2/workspaces/${id}/invitations`, {
    headers: { 'x-csrf-token': await csrfToken(session) },
    data: { email, role },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}
