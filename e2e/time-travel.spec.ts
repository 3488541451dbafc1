// Time travel (issue 20) in the real app against the real server: restoring a version and a
// file, what a reader sees, comparing two versions of a GeoPackage, resolving a conflicted
// copy. Versions are pushed through the real push protocol (support/push.ts), as the desktop
// client would.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createUser } from './support/admin';
import { createProject, shareProject, signInSession } from './support/api';
import { expectAccessible } from './support/axe';
import { e2eAdmin } from './support/env';
import { pointWkt, pointsGeoPackage, type PointFeature } from './support/geopackage';
import { pushFiles } from './support/push';
import { transitionsFinished } from './support/page-predicates';
import { unique } from './support/unique';

const NS = 'waymark';

function projectUrl(name: string, rest = ''): string {
  return `/projects/${NS}/${encodeURIComponent(name)}${rest}`;
}

/** Every file of the project at `version` with its bytes, read through the API. */
async function filesAt(
  request: APIRequestContext,
  name: string,
  version: string,
): Promise<Record<string, string>> {
  const base = `/v1/project`;
  const project = `${NS}/${encodeURIComponent(name)}`;
  const detail = await request.get(`${base}/${project}?version=${version}`);
  expect(detail.status()).toBe(200);
  const { files } = (await detail.json()) as { files: { path: string }[] };
  const result: Record<string, string> = {};
  for (const { path } of files) {
    const raw = await request.get(
      `${base}/raw/${project}?file=${encodeURIComponent(path)}&version=${version}`,
    );
    expect(raw.status()).toBe(200);
    result[path] = (await raw.body()).toString('base64');
  }
  return result;
}

async function latestVersion(request: APIRequestContext, name: string): Promise<string> {
  const detail = await request.get(`/v1/project/${NS}/${encodeURIComponent(name)}`);
  return ((await detail.json()) as { version: string }).version;
}

/** Each body row as {header: text}; the change column holds the icon's name. */
async function tableRows(table: Locator): Promise<Record<string, string>[]> {
  return table.evaluate((element) => {
    const headers = [...element.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    return [...element.querySelectorAll('tbody tr')].map((row) =>
      Object.fromEntries(
        [...row.querySelectorAll('td')].map((cell, index) => [
          headers[index] ?? String(index),
          cell.querySelector('[role="img"]')?.getAttribute('aria-label') ??
            (cell.textContent ?? '').trim(),
        ]),
      ),
    );
  });
}

const sorted = (rows: Record<string, string>[]) =>
  [...rows].sort((a, b) => (a.fid ?? '').localeCompare(b.fid ?? ''));

async function openVersion(page: Page, name: string, version: string): Promise<Locator> {
  await page.goto(projectUrl(name, `/history?version_id=${version}`));
  const sidebar = page.getByRole('dialog', { name: version, exact: true });
  await expect(sidebar.getByText('User agent')).toBeVisible();
  return sidebar;
}

const V1: PointFeature[] = [
  { fid: 1, name: 'oak', height: 12.5, x: 14.1, y: 50.1 },
  { fid: 2, name: 'ash', height: 8.25, x: 14.2, y: 50.2 },
  { fid: 3, name: 'fir', height: 20.5, x: 14.3, y: 50.3 },
  { fid: 4, name: 'elm', height: 6.75, x: 14.4, y: 50.4 },
];

test('restoring v1 makes v4 with the files of v1 and leaves v2 and v3; one file restores alone; a reader sees no restore button', async ({
  page,
  browser,
}) => {
  const name = `Restore ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, NS, name);
  expect(
    await pushFiles(page, NS, name, {
      files: {
        'notes.txt': 'Notes of v1\n',
        'plan/route.txt': 'Route A\n',
        'survey.gpkg': pointsGeoPackage('points', V1),
      },
    }),
  ).toBe('v1');
  expect(
    await pushFiles(page, NS, name, {
      files: { 'notes.txt': 'Notes of v2\n', 'extra.txt': 'Added in v2\n' },
    }),
  ).toBe('v2');
  const edited = V1.map((f) => (f.fid === 1 ? { ...f, name: 'beech' } : f)).filter(
    (f) => f.fid !== 4,
  );
  expect(
    await pushFiles(page, NS, name, {
      files: { 'survey.gpkg': pointsGeoPackage('points', edited) },
      removed: ['plan/route.txt'],
    }),
  ).toBe('v3');
  const before = {
    v1: await filesAt(page.request, name, 'v1'),
    v2: await filesAt(page.request, name, 'v2'),
    v3: await filesAt(page.request, name, 'v3'),
  };
  expect(Object.keys(before.v1).sort()).toEqual(['notes.txt', 'plan/route.txt', 'survey.gpkg']);

  // Restore v1 from its detail: a confirmation says what happens, 'Restore' makes v4.
  const v1 = await openVersion(page, name, 'v1');
  await v1.getByRole('button', { name: 'Restore this version' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restore v1?' });
  await expect(confirm).toContainText('A new version will contain the files as they were in v1');
  await expect(confirm).toContainText('No version is removed');
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(page).toHaveURL(/\/history\?version_id=v4$/);
  const v4 = page.getByRole('dialog', { name: 'v4' });
  await expect(v4.getByText('Restored v1', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Versions' }).getByRole('link', { name: 'v4', exact: true }),
  ).toBeVisible();

  // v4 holds v1's files, byte for byte; v2 and v3 are as they were.
  expect(await filesAt(page.request, name, 'v4')).toEqual(before.v1);
  expect(await filesAt(page.request, name, 'v2')).toEqual(before.v2);
  expect(await filesAt(page.request, name, 'v3')).toEqual(before.v3);

  // Restore one file: notes.txt as it was in v2, from v2's list of edited files; v5.
  const v2 = await openVersion(page, name, 'v2');
  const notesRow = v2.getByRole('listitem').filter({ hasText: 'notes.txt' });
  await notesRow.getByRole('button', { name: 'Restore this file' }).click();
  const confirmFile = page.getByRole('dialog', { name: 'Restore notes.txt from v2?' });
  await confirmFile.getByRole('button', { name: 'Restore' }).click();
  await expect(page).toHaveURL(/\/history\?version_id=v5$/);
  await expect(
    page
      .getByRole('dialog', { name: 'v5' })
      .getByText('Restored notes.txt from v2', { exact: true }),
  ).toBeVisible();
  expect(await filesAt(page.request, name, 'v5')).toEqual({
    ...before.v1,
    'notes.txt': before.v2['notes.txt'],
  });

  // And from the file version detail: survey.gpkg as it was in v3; v6.
  await page.goto(projectUrl(name, '/history/v3/survey.gpkg'));
  await page.getByRole('button', { name: 'Restore this file' }).click();
  await page
    .getByRole('dialog', { name: 'Restore survey.gpkg from v3?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(page).toHaveURL(/\/history\?version_id=v6$/);
  expect((await filesAt(page.request, name, 'v6'))['survey.gpkg']).toBe(before.v3['survey.gpkg']);

  // A reader compares but sees no restore button anywhere.
  const reader = await createUser('reader');
  await shareProject(page, NS, name, { readersnames: [reader.username] });
  const context = await browser.newContext();
  const readerPage = await context.newPage();
  await signInSession(readerPage, reader.username, reader.password);
  const seen = await openVersion(readerPage, name, 'v2');
  await expect(seen.getByRole('link', { name: 'Compare with the latest version' })).toBeVisible();
  await expect(seen.getByRole('button', { name: 'Restore this version' })).toHaveCount(0);
  await expect(seen.getByRole('button', { name: 'Restore this file' })).toHaveCount(0);
  await readerPage.goto(projectUrl(name, '/history/v3/survey.gpkg'));
  await expect(readerPage.getByRole('heading', { name: 'survey.gpkg' })).toBeVisible();
  await expect(readerPage.getByRole('table', { name: 'Changes of points' })).toBeVisible();
  await expect(readerPage.getByRole('button', { name: 'Restore this file' })).toHaveCount(0);
  await context.close();
});

test('comparing v1 with v4 shows each changed row once with its net change; swapping shows the reverse', async ({
  page,
}) => {
  const name = `Compare ${unique()}`;
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, NS, name);
  const at = (features: PointFeature[], fid: number) =>
    features.find((f) => f.fid === fid) as PointFeature;
  // v2: fid 1 renamed, fid 5 inserted; v3: fid 1 taller, fid 3 deleted; v4: fid 1 renamed
  // again, fid 2 moved, fid 5 deleted again (inserted and deleted in between: not shown).
  const V2 = [
    ...V1.map((f) => (f.fid === 1 ? { ...f, name: 'beech' } : f)),
    {
      fid: 5,
      name: 'yew',
      height: 4.5,
      x: 14.5,
      y: 50.5,
    },
  ];
  const V3 = V2.map((f) => (f.fid === 1 ? { ...f, height: 13.5 } : f)).filter((f) => f.fid !== 3);
  const MOVED = { x: 14.25, y: 50.27 };
  const V4 = V3.map((f) =>
    f.fid === 1 ? { ...f, name: 'maple' } : f.fid === 2 ? { ...f, ...MOVED } : f,
  ).filter((f) => f.fid !== 5);
  const versions = [V1, V2, V3, V4];
  for (const [index, features] of versions.entries()) {
    expect(
      await pushFiles(page, NS, name, {
        files: {
          'survey.gpkg': pointsGeoPackage('points', features),
          ...(index === 0 ? { 'readme.txt': 'Survey\n' } : {}),
          ...(index === 2 ? { 'photo-list.txt': 'IMG_1\n' } : {}),
        },
      }),
    ).toBe(`v${index + 1}`);
  }

  // From the versions list: pick v4 and v1, then 'Compare'.
  await page.goto(projectUrl(name, '/history'));
  const table = page.getByRole('table', { name: 'Versions' });
  await expect(table.getByRole('link', { name: 'v4', exact: true })).toBeVisible();
  const compare = page.getByRole('button', { name: 'Compare', exact: true });
  await expect(compare).toBeDisabled();
  await table.getByRole('checkbox', { name: 'Select v4' }).check();
  await table.getByRole('checkbox', { name: 'Select v1' }).check();
  await compare.click();
  await expect(page).toHaveURL(/\/compare\?from=v1&to=v4$/);
  await expect(page.getByRole('heading', { name: 'Compare v1 with v4' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');

  const added = page.getByRole('region', { name: 'Files added' });
  await expect(added.getByRole('group', { name: 'photo-list.txt' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Files removed' })).toContainText('No files');

  const old1 = at(V1, 1);
  const moved = at(V1, 2);
  const deleted = at(V1, 3);
  const row = (change: string, fid: number, cells: Partial<Record<string, string>>) => ({
    Change: change,
    fid: String(fid),
    geom: '',
    name: '',
    height: '',
    ...cells,
  });
  const forward = [
    row('update', 1, { name: `${old1.name} → maple`, height: `${old1.height} → 13.5` }),
    row('update', 2, { geom: `${pointWkt(moved)} → ${pointWkt(MOVED)}` }),
    row('delete', 3, {
      geom: pointWkt(deleted),
      name: deleted.name,
      height: String(deleted.height),
    }),
  ];
  const survey = page.getByRole('region', { name: 'Files edited' }).getByRole('group', {
    name: 'survey.gpkg',
  });
  const points = survey.getByRole('table', { name: 'Changes of points' });
  await expect(points.locator('tbody tr')).toHaveCount(3, { timeout: 30_000 });
  expect(sorted(await tableRows(points))).toEqual(sorted(forward));
  expect(
    await tableRows(survey.getByRole('table', { name: 'Row changes of survey.gpkg' })),
  ).toEqual([{ ID: '1', Table: 'points', Insert: '0', Update: '2', Delete: '1' }]);
  await expectAccessible(page, 'compare');

  // Swapped: the reverse of each change.
  await page.getByRole('button', { name: 'Swap versions' }).click();
  await expect(page).toHaveURL(/\/compare\?from=v4&to=v1$/);
  await expect(page.getByRole('heading', { name: 'Compare v4 with v1' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Files removed' }).getByRole('group', {
      name: 'photo-list.txt',
    }),
  ).toBeVisible();
  const reversed = page
    .getByRole('region', { name: 'Files edited' })
    .getByRole('group', { name: 'survey.gpkg' })
    .getByRole('table', { name: 'Changes of points' });
  await expect(reversed.locator('tbody tr')).toHaveCount(3, { timeout: 30_000 });
  expect(sorted(await tableRows(reversed))).toEqual(
    sorted([
      row('update', 1, { name: `maple → ${old1.name}`, height: `13.5 → ${old1.height}` }),
      row('update', 2, { geom: `${pointWkt(MOVED)} → ${pointWkt(moved)}` }),
      row('insert', 3, {
        geom: pointWkt(deleted),
        name: deleted.name,
        height: String(deleted.height),
      }),
    ]),
  );

  // From a version's detail: 'Compare with the latest version'.
  const v2 = await openVersion(page, name, 'v2');
  await v2.getByRole('link', { name: 'Compare with the latest version' }).click();
  await expect(page).toHaveURL(/\/compare\?from=v2&to=v4$/);
  await expect(page.getByRole('heading', { name: 'Compare v2 with v4' })).toBeVisible();
});

test("a conflicted copy is listed, shown beside its original, and 'Keep this copy' puts its bytes in the original's place", async ({
  page,
}) => {
  const name = `Conflicts ${unique()}`;
  const copyPath = 'notes (conflicted copy, ann v1).txt';
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, NS, name);
  const gpkgCopy = 'survey (conflicted copy, ann v1).gpkg';
  expect(
    await pushFiles(page, NS, name, {
      files: {
        'notes.txt': 'Server notes\n',
        'a.txt': 'A\n',
        'survey.gpkg': pointsGeoPackage('points', V1),
      },
    }),
  ).toBe('v1');
  // The desktop client's push after a conflict: the user's edits as conflicted copies.
  const renamed = V1.map((f) => (f.fid === 1 ? { ...f, name: 'ash' } : f));
  expect(
    await pushFiles(page, NS, name, {
      files: {
        [copyPath]: 'My field notes, edited offline\n',
        [gpkgCopy]: pointsGeoPackage('points', renamed),
      },
    }),
  ).toBe('v2');

  await page.goto(projectUrl(name, '/tree'));
  const notice = page.getByRole('region', { name: 'Conflicts' });
  await expect(notice).toContainText('Conflicting file in project');
  await notice.getByRole('link', { name: copyPath }).click();
  await expect(page.getByRole('heading', { name: `Conflict: ${copyPath}` })).toBeVisible();
  const original = page.getByRole('region', { name: 'Original' });
  const copy = page.getByRole('region', { name: 'Conflicted copy' });
  await expect(original).toContainText('notes.txt');
  await expect(original).toContainText('Server notes');
  await expect(copy).toContainText(copyPath);
  await expect(copy).toContainText('My field notes, edited offline');
  await expectAccessible(page, 'conflicted copy');

  // It asks first, naming what it overwrites (issue 31); cancelled, nothing changes.
  await page.getByRole('button', { name: 'Keep this copy' }).click();
  let confirm = page.getByRole('dialog', { name: 'Overwrite notes.txt?' });
  await expect(confirm).toContainText(
    `notes.txt gets the content of ${copyPath}, the copy ann made (v1): everything notes.txt holds now, including changes others made since, is overwritten`,
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(await latestVersion(page.request, name)).toBe('v2');
  await page.getByRole('button', { name: 'Keep this copy' }).click();
  confirm = page.getByRole('dialog', { name: 'Overwrite notes.txt?' });
  await page.waitForFunction(transitionsFinished);
  await confirm.getByRole('button', { name: 'Overwrite' }).click();
  await expect(page).toHaveURL(/\/tree\/?$/);
  expect(await latestVersion(page.request, name)).toBe('v3');
  const files = await filesAt(page.request, name, 'v3');
  expect(Object.keys(files).sort()).toEqual(['a.txt', 'notes.txt', 'survey.gpkg', gpkgCopy].sort());
  expect(Buffer.from(files['notes.txt'] ?? '', 'base64').toString()).toBe(
    'My field notes, edited offline\n',
  );
  // The project view shows the new state: the copy is gone from the list and the notice.
  await expect(page.getByText('a.txt', { exact: true })).toBeVisible();
  await expect(page.getByText(copyPath)).toHaveCount(0);

  // A GeoPackage's copy: the rows keeping it would change; 'Discard copy' removes it alone.
  await page
    .getByRole('region', { name: 'Conflicts' })
    .getByRole('link', { name: gpkgCopy })
    .click();
  const rows = page
    .getByRole('region', { name: 'Rows of survey.gpkg that keeping this copy changes' })
    .getByRole('table', { name: 'Changes of points' });
  await expect(rows.locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });
  expect(await tableRows(rows)).toEqual([{ Change: 'update', fid: '1', name: 'oak → ash' }]);
  await page.getByRole('button', { name: 'Discard copy' }).click();
  await expect(page).toHaveURL(/\/tree\/?$/);
  await expect(page.getByRole('region', { name: 'Conflicts' })).toHaveCount(0);
  expect(await latestVersion(page.request, name)).toBe('v4');
  const after = await filesAt(page.request, name, 'v4');
  expect(Object.keys(after).sort()).toEqual(['a.txt', 'notes.txt', 'survey.gpkg']);
  expect(after['survey.gpkg']).toBe(files['survey.gpkg']);
});

test("an edit conflict shows base, ours and theirs per field; 'Keep this copy' writes theirs back", async ({
  page,
}) => {
  const name = `Edit conflict ${unique()}`;
  const conflictPath = 'survey (edit conflict, ann v1).json';
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, NS, name);
  expect(
    await pushFiles(page, NS, name, { files: { 'survey.gpkg': pointsGeoPackage('points', V1) } }),
  ).toBe('v1');
  // The desktop client's rebase kept ours ('ash') over theirs ('elm') for fid 1's name (column
  // 2: fid, geom, name, height) and left the conflict beside the GeoPackage.
  const ours = V1.map((f) => (f.fid === 1 ? { ...f, name: 'ash' } : f));
  const conflict = {
    geodiff: [
      {
        table: 'points',
        type: 'conflict',
        fid: 1,
        changes: [{ column: 2, base: 'oak', old: 'elm', new: 'ash' }],
      },
    ],
  };
  expect(
    await pushFiles(page, NS, name, {
      files: {
        'survey.gpkg': pointsGeoPackage('points', ours),
        [conflictPath]: JSON.stringify(conflict),
      },
    }),
  ).toBe('v2');

  await page.goto(projectUrl(name, '/tree'));
  await page
    .getByRole('region', { name: 'Conflicts' })
    .getByRole('link', { name: conflictPath })
    .click();
  const fields = page.getByRole('table', { name: 'Conflicting fields' });
  await expect(fields.locator('tbody tr')).toHaveCount(1);
  expect(await tableRows(fields)).toEqual([
    { Table: 'points', Feature: '1', Field: 'name', Base: 'oak', Ours: 'ash', Theirs: 'elm' },
  ]);
  await expectAccessible(page, 'edit conflict');

  await page.getByRole('button', { name: 'Keep this copy' }).click();
  const confirm = page.getByRole('dialog', { name: 'Overwrite fields of survey.gpkg?' });
  await expect(confirm).toContainText("get the values of ann's edit (Theirs)");
  await page.waitForFunction(transitionsFinished);
  await confirm.getByRole('button', { name: 'Overwrite' }).click();
  await expect(page).toHaveURL(/\/tree\/?$/);
  await expect(page.getByRole('region', { name: 'Conflicts' })).toHaveCount(0);
  expect(await latestVersion(page.request, name)).toBe('v3');
  expect(Object.keys(await filesAt(page.request, name, 'v3'))).toEqual(['survey.gpkg']);

  // The new version's row change: theirs is back in fid 1's name.
  await page.goto(projectUrl(name, '/compare?from=v2&to=v3'));
  const points = page
    .getByRole('region', { name: 'Files edited' })
    .getByRole('group', { name: 'survey.gpkg' })
    .getByRole('table', { name: 'Changes of points' });
  await expect(points.locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });
  expect(await tableRows(points)).toEqual([{ Change: 'update', fid: '1', name: 'ash → elm' }]);
  await expect(page.getByRole('region', { name: 'Files removed' })).toContainText(conflictPath);
});
