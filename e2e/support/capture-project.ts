// The field capture e2e tests' project (issue 34): the QGIS fixture made by real QGIS
// (tests/fixtures/qgis: make-project.py, survey.gpkg and survey.qgs) pushed as v1, and what the
// server says about its versions afterwards.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { apiSession, createProject } from './api';
import { pushFiles } from './push';

const FIXTURE = resolve('tests/fixtures/qgis');

export const CAPTURE_FILE = 'survey.gpkg';

/** Where the fixture's trees are (lon, lat; tests/fixtures/qgis/make-project.py). */
export const TREES = {
  'Old oak': [21.0122, 52.2297],
  Pine: [21.013, 52.2301],
  Plane: [21.014, 52.229],
} as const;

/**
 * The fixture's QGIS project. `editablePlots`: the polygon layer `plots`, which the fixture
 * marks read-only in QGIS (`readOnly="1"` on its map layer), made editable by clearing that
 * one attribute, so a polygon can be drawn; everything else is the file QGIS wrote.
 */
export function fixtureProject({ editablePlots }: { editablePlots: boolean }): Buffer {
  const text = readFileSync(resolve(FIXTURE, 'survey.qgs'), 'utf8');
  if (!editablePlots) return Buffer.from(text);
  const flag = /(<maplayer [^>]*?)readOnly="1"([^>]*geometry="Polygon")/;
  expect(text).toMatch(flag);
  return Buffer.from(text.replace(flag, '$1readOnly="0"$2'));
}

/** The admin creates project `name` with the fixture's GeoPackage and QGIS project as v1. */
export async function seedCaptureProject(
  name: string,
  { editablePlots }: { editablePlots: boolean },
): Promise<void> {
  const admin = await apiSession();
  try {
    await createProject(admin, 'waymark', name, false);
    expect(
      await pushFiles(admin, 'waymark', name, {
        files: {
          [CAPTURE_FILE]: readFileSync(resolve(FIXTURE, 'survey.gpkg')),
          'survey.qgs': fixtureProject({ editablePlots }),
        },
      }),
    ).toBe('v1');
  } finally {
    await admin.dispose();
  }
}

interface ProjectInfo {
  id: string;
  version: string;
  files: { path: string }[];
}

export async function projectInfo(page: Page, name: string): Promise<ProjectInfo> {
  const response = await page.request.get(`/v1/project/waymark/${encodeURIComponent(name)}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ProjectInfo;
}

/** The number of versions of a project. */
export async function versionCount(page: Page, name: string): Promise<number> {
  const response = await page.request.get(
    `/v1/project/versions/paginated/waymark/${encodeURIComponent(name)}?page=1&per_page=50`,
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

/** The row changes a version made to a file, by type (waits while the server calculates them). */
export async function changesetCounts(
  page: Page,
  name: string,
  version: string,
  path: string,
): Promise<Record<string, number>> {
  let changes: { table: string; type: string }[] = [];
  await expect
    .poll(
      async () => {
        const response = await page.request.get(
          `/v1/resource/changesets/waymark/${encodeURIComponent(name)}/${version}?path=${encodeURIComponent(path)}`,
        );
        if (response.status() !== 200) return response.status();
        const body = (await response.json()) as unknown;
        if (!Array.isArray(body)) return 'pending';
        changes = body as typeof changes;
        return 200;
      },
      { timeout: 60_000 },
    )
    .toBe(200);
  const counts: Record<string, number> = {};
  for (const change of changes) counts[change.type] = (counts[change.type] ?? 0) + 1;
  return counts;
}

/** A small JPEG (32×24 px) made by the browser's own encoder, as a camera would hand one over. */
export async function browserJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(`(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 32;
    canvas.height = 24;
    const context = canvas.getContext('2d');
    context.fillStyle = '#2f9e44';
    context.fillRect(0, 0, 32, 24);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.8));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  })()`);
  return Buffer.from(base64 as string, 'base64');
}
