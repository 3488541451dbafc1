import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { admin, createUser } from './support/admin';
import { shareProject, signInSession } from './support/api';
import { e2eAdmin } from './support/env';
import { signIn } from './pages/session';
import { transitionsFinished } from './support/page-predicates';
import { unique } from './support/unique';
import { tempDir } from './support/temp-dir';

/** A small survey folder: a QGIS project, a layer in a subfolder and a note. */
function surveyFolder(): string {
  const dir = tempDir('survey');
  mkdirSync(join(dir, 'data', 'photos'), { recursive: true });
  writeFileSync(join(dir, 'survey.qgs'), '<qgis version="3.34"></qgis>\n');
  writeFileSync(join(dir, 'data', 'notes.txt'), 'Trees along the river, checked 2026-11-20.\n');
  writeFileSync(join(dir, 'data', 'photos', 'readme.md'), '# Photos\n');
  return dir;
}

async function createProjectInUi(page: Page, name: string) {
  await page.goto('/projects');
  await page.getByRole('button', { name: 'Create project' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  const create = dialog.getByRole('button', { name: 'Create project' });
  await expect(create).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Project name' }).fill(`  ${name}  `);
  await create.click();
  await expect(page).toHaveURL(new RegExp(`/projects/waymark/${encodeURIComponent(name)}/tree`));
}

test('create a project, make it public, and an anonymous visitor browses it in Explore', async ({
  page,
  browser,
}) => {
  const name = `River survey ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProjectInUi(page, name);

  await page.goto('/projects');
  await page.getByRole('textbox', { name: 'Search projects by name' }).fill(name);
  await expect(page.getByRole('link', { name })).toBeVisible();

  await admin('project', 'import', 'waymark', name, surveyFolder());

  await page.getByRole('link', { name }).click();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Make public' }).click();
  await page
    .getByRole('dialog', { name: 'Make project public?' })
    .getByRole('button', { name: 'Ok' })
    .click();
  await expect(page.getByRole('button', { name: 'Make private' })).toBeVisible();

  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await anon.goto('/projects/explore');
  await anon.getByRole('textbox', { name: 'Search projects by name' }).fill(name);
  await anon.getByRole('link', { name: new RegExp(name) }).click();
  await expect(anon.getByRole('link', { name: 'survey.qgs' })).toBeVisible();
  await anon.getByRole('link', { name: 'data', exact: true }).click();
  await expect(anon).toHaveURL(/\/tree\/data$/);
  await anon.getByRole('link', { name: 'photos', exact: true }).click();
  await expect(anon.getByRole('link', { name: 'readme.md' })).toBeVisible();
  await anon.getByRole('link', { name: 'Parent folder' }).click();
  await anon.getByRole('link', { name: 'notes.txt' }).click();
  await expect(anon.getByText('Trees along the river, checked 2026-11-20.')).toBeVisible();
  await expect(anon.getByRole('tab', { name: 'Settings' })).toHaveCount(0);
  await visitor.close();
});

test('clone a project, then delete the clone with its typed name', async ({ page }) => {
  const name = `Clone source ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProjectInUi(page, name);
  await admin('project', 'import', 'waymark', name, surveyFolder());
  await page.reload();

  await page.getByRole('button', { name: 'Clone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clone project' });
  const nameField = dialog.getByRole('textbox', { name: 'Project name' });
  await expect(nameField).toHaveValue(name);
  // Persistent (spec 000 §2): neither Escape nor a click outside closes it.
  await page.waitForFunction(transitionsFinished);
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 300);
  // A closing dialog would be fading out now: once no transition runs, it is still there.
  await page.waitForFunction(transitionsFinished);
  await expect(dialog).toBeVisible();
  const cloneName = `${name} copy`;
  await nameField.fill(cloneName);
  await dialog.getByRole('button', { name: 'Clone project' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/waymark/${encodeURIComponent(cloneName)}`));
  await expect(page.getByRole('link', { name: 'survey.qgs' })).toBeVisible();

  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Delete project' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete project?' });
  const remove = confirm.getByRole('button', { name: 'Delete project' });
  await confirm.getByRole('textbox', { name: 'Type the project name to confirm' }).fill(name);
  await expect(remove).toBeDisabled();
  await confirm.getByRole('textbox', { name: 'Type the project name to confirm' }).fill(cloneName);
  await remove.click();
  await expect(page).not.toHaveURL(/\/projects\//);
  await expect(page.getByText(`Project waymark/${cloneName} was deleted`)).toBeVisible();

  await page.goto(`/projects/waymark/${encodeURIComponent(cloneName)}`);
  await expect(page.getByText('Project not found')).toBeVisible();
});

test('leave a project that was shared with you', async ({ page, browser }) => {
  const name = `Shared survey ${unique()}`;
  const reader = await createUser('reader');
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProjectInUi(page, name);
  await shareProject(page, 'waymark', name, { readersnames: [reader.username] });

  const context = await browser.newContext();
  const readerPage = await context.newPage();
  await signIn(
    readerPage,
    reader.username,
    reader.password,
    `/projects/waymark/${encodeURIComponent(name)}`,
  );
  await readerPage.getByRole('button', { name: 'Leave project' }).click();
  const dialog = readerPage.getByRole('dialog');
  await expect(dialog).toContainText(`Are you sure to leave the project waymark/${name}?`);
  await expect(dialog).toContainText('You will not have access to it anymore.');
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(readerPage).toHaveURL(/\/dashboard$/);

  await readerPage.goto(`/projects/waymark/${encodeURIComponent(name)}`);
  await expect(readerPage.getByText('This is a private project')).toBeVisible();
  await readerPage.getByRole('button', { name: 'Request access' }).click();
  await expect(readerPage.getByText('Access has been requested')).toBeVisible();
  await expect(readerPage).toHaveURL(/\/projects$/);
  await context.close();
});
