// Community templates (spec 001 §1, issue 22): the projects list invites those who may create
// projects to start from one, and 'New project' starts from the chosen template: the new
// project's first version holds the template's files. At 1280 and 768 px.
import { expect, test } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { apiSession, createProject, csrfToken } from './support/api';
import { expectAccessible } from './support/axe';
import { pushFiles } from './support/push';
import { signIn } from './pages/session';
import { unique } from './support/unique';

const TEMPLATES = { username: 'TEMPLATES', password: 'Field-Surv3y!' };

/**
 * The TEMPLATES user (made once per server, by the operator) keeps a public template in a
 * workspace of its own.
 */
async function makeTemplate(name: string): Promise<() => Promise<void>> {
  try {
    await admin('user', 'create', TEMPLATES.username, 'templates@example.com', TEMPLATES.password);
  } catch (error) {
    if (!String(error).includes('exist')) throw error;
  }
  const library = `library${unique()}`;
  await admin('workspace', 'create', library);
  await admin('workspace', 'role', library, TEMPLATES.username, 'owner');
  const owner = await apiSession(TEMPLATES);
  // Public: a template is offered to those who may read it (issue 29).
  await createProject(owner, library, name, true);
  await pushFiles(owner, library, name, {
    files: { 'survey.qgs': '<qgis version="3.34"/>\n', 'forms/trees.csv': 'species,height\n' },
  });
  // Removes the template again, so later tests see no templates.
  return async () => {
    const detail = await owner.request.get(`/v1/project/${library}/${encodeURIComponent(name)}`);
    const { id } = (await detail.json()) as { id: string };
    const removed = await owner.request.post(`/v2/projects/${id}/scheduleDelete`, {
      headers: { 'x-csrf-token': await csrfToken(owner) },
    });
    expect(removed.status()).toBe(204);
    await owner.dispose();
  };
}

for (const width of [1280, 768]) {
  test(`at ${width} px the templates banner starts a new project from a community template @serial`, async ({
    page,
  }) => {
    const template = `Tree survey ${width} ${unique()}`;
    const removeTemplate = await makeTemplate(template);
    try {
      const planner = await createUser('planner');
      const project = `Trees of the park ${width} ${unique()}`;
      await admin('workspace', 'role', 'waymark', planner.username, 'admin');
      await page.setViewportSize({ width, height: 800 });
      await signIn(page, planner.username, planner.password, '/projects');

      const banner = page.getByRole('complementary', { name: 'Community templates' });
      await expect(banner).toContainText('Start from a community template');
      await banner.getByRole('button', { name: 'Browse templates' }).click();
      const dialog = page.getByRole('dialog', { name: 'New project' });
      await dialog.getByRole('textbox', { name: 'Project name' }).fill(project);
      await dialog.getByRole('combobox', { name: 'Template' }).click();
      await dialog.getByRole('option', { name: template }).click();
      await expectAccessible(page, 'New project from a template');
      await dialog.getByRole('button', { name: 'Create project' }).click();

      await expect(page).toHaveURL(new RegExp(`/projects/waymark/${encodeURIComponent(project)}`));
      await expect(page.getByRole('link', { name: 'survey.qgs' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'forms' })).toBeVisible();
      await page.getByRole('tab', { name: 'History' }).click();
      // The template's files are the project's first version (a blank project lists none).
      await expect(page.getByRole('link', { name: 'Download v1' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'v1', exact: true })).toBeVisible();

      // Dismissed, the banner stays away on this device.
      await page.goto('/projects');
      await banner.getByRole('button', { name: 'Dismiss the community templates' }).click();
      await expect(banner).toBeHidden();
      await page.reload();
      await expect(page.getByRole('link', { name: project })).toBeVisible();
      await expect(banner).toBeHidden();
    } finally {
      await removeTemplate();
    }
  });
}

test('without permission to create projects the projects list shows no templates banner @serial', async ({
  page,
}) => {
  const removeTemplate = await makeTemplate(`Hidden ${unique()}`);
  try {
    const guest = await createUser('looker');
    await signIn(page, guest.username, guest.password, '/projects');
    await expect(page.getByRole('heading', { name: /My projects/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create project' })).toBeHidden();
    await expect(page.getByRole('complementary', { name: 'Community templates' })).toBeHidden();
  } finally {
    await removeTemplate();
  }
});
