// The field outbox's steps shared by the outbox specs (issue 18): a project saved on this
// device, reloaded offline, files queued there.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { apiSession, createProject } from './api';
import { e2eAdmin } from './env';
import { pushFiles } from './push';
import { waitForServiceWorker } from './service-worker';
import { ProjectFilesPage } from '../pages/project-files-page';
import { signIn } from '../pages/session';
import { unique } from './unique';
import { setOffline } from './offline';

export const stamp = unique;

/**
 * Another device (a session of its own, no browser) pushes `files` to the project
 * `name` in the waymark workspace meanwhile; answers the version it made.
 */
export async function pushFromElsewhere(
  name: string,
  files: Record<string, string>,
): Promise<string> {
  const other = await apiSession();
  try {
    return await pushFiles(other, 'waymark', name, { files });
  } finally {
    await other.dispose();
  }
}

/** Writes `bytes` as `name` in a fresh folder under `dir`; answers its path. */
export function fileOnDisk(dir: string, name: string, bytes: Buffer): string {
  const path = join(mkdtempSync(join(dir, 'f-')), name);
  writeFileSync(path, bytes);
  return path;
}

/** A private project with `files` as v1, opened online once so it is saved on this device. */
export async function savedProject(
  page: Page,
  files: Record<string, string>,
): Promise<ProjectFilesPage> {
  const name = `Outbox ${stamp()}`;
  await createProject(page, 'waymark', name, false);
  await pushFiles(page, 'waymark', name, { files });
  const project = new ProjectFilesPage(page, 'waymark', name);
  await project.goto();
  await expect(page.getByRole('link', { name: Object.keys(files)[0] })).toBeVisible();
  return project;
}

/** Reloads the project's files offline (from the saved copy). */
export async function reloadOffline(page: Page, project: ProjectFilesPage): Promise<void> {
  await project.goto();
  await expect(page.getByRole('status').filter({ hasText: 'Offline' }).first()).toBeVisible();
}

/** Signed in as the admin, the service worker running: a saved project, reopened offline. */
export async function savedProjectOffline(
  page: Page,
  files: Record<string, string>,
): Promise<ProjectFilesPage> {
  await signIn(page, e2eAdmin.username, e2eAdmin.password);
  await waitForServiceWorker(page);
  const project = await savedProject(page, files);
  await setOffline(page.context(), true);
  await reloadOffline(page, project);
  return project;
}

/** Chooses `paths` (and deletes `removed`) and presses 'Update Changes' offline: queued. */
export async function queue(project: ProjectFilesPage, paths: string[], removed: string[] = []) {
  const { page } = project;
  await project.filesInput().setInputFiles(paths);
  for (const path of removed) {
    await page.getByRole('link', { name: path }).click();
    const panel = page.getByRole('dialog', { name: path });
    await panel.getByRole('button', { name: 'Delete file' }).click();
    await expect(panel.getByText('Deleted file')).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await expect(project.dataSync().getByRole('group', { name: 'Analysing files' })).toHaveCount(0, {
    timeout: 60_000,
  });
  await project.updateChanges().click();
  await expect(project.dataSync()).toContainText('Waiting for the network', { timeout: 30_000 });
}

/**
 * The upload of `mine` as site.txt, queued offline while another user pushed 'theirs\n' as
 * v2, landed as v3: theirs stays, mine beside it as the conflicted copy, and the outcome says so.
 */
export async function expectConflictedCopyLanded(
  project: ProjectFilesPage,
  mine: Buffer,
): Promise<void> {
  const { page } = project;
  const copy = `site (conflicted copy, ${e2eAdmin.username} v2).txt`;
  await expect(page.getByText(`Upload finished: waymark/${project.name}`)).toBeVisible({
    timeout: 90_000,
  });
  await expect(page.getByText(`yours was uploaded as ${copy}`)).toBeVisible();
  expect((await project.project()).version).toBe('v3');
  expect((await project.download('site.txt')).toString()).toBe('theirs\n');
  expect((await project.download(copy)).equals(mine)).toBe(true);
}

/** One read of `table` in this browser's IndexedDB 'waymark' (`empty` when the table is not there). */
function readStore<T>(
  page: Page,
  table: string,
  read: 'count' | 'getAllKeys',
  empty: T,
): Promise<T> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const request = indexedDB.open('waymark');
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(${JSON.stringify(table)})) { db.close(); resolve(${JSON.stringify(empty)}); return; }
      const answer = db.transaction(${JSON.stringify(table)}, 'readonly').objectStore(${JSON.stringify(table)}).${read}();
      answer.onsuccess = () => { db.close(); resolve(answer.result); };
      answer.onerror = () => { db.close(); reject(answer.error); };
    };
  })`);
}

/** Rows of `table` in this browser's IndexedDB 'waymark' (0 when the table is not there). */
export function storedRows(page: Page, table: string): Promise<number> {
  return readStore(page, table, 'count', 0);
}

/** The keys of `table`'s rows in this browser's IndexedDB 'waymark' (none when it is not there). */
export function storedKeys(page: Page, table: string): Promise<unknown[]> {
  return readStore<unknown[]>(page, table, 'getAllKeys', []);
}
