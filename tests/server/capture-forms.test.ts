/**
 * Feature forms (issue 34, schemas/forms.ts) from a QGIS project written by real QGIS
 * (tests/fixtures/qgis, make-project.py): aliases, widgets, tabs and groups, defaults,
 * constraints, the fallback flag, read-only layers, the value relation's filtered options,
 * the photo folder; the .qgz the same; plain forms without a project file or with several;
 * caching headers, permissions and the single feature's geometry.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import type { Project } from '../../server/src/db/schema';
import type { FormField, FormLayer, ProjectForms } from '../../server/src/schemas/forms';
import type { MapFeature } from '../../server/src/schemas/map';
import { commit, createProject, signedInUser } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/qgis');

let t: TestApp;
let admin: TestClient;
let reader: TestClient;
let anonymous: TestClient;
let project: Project;
let plain: Project;
let gpkg: Buffer;

const formsUrl = (p: Project, version = '') =>
  `/app/map/${t.config.globalWorkspace}/${p.name}/forms${version ? `?version=${version}` : ''}`;

async function forms(client: TestClient, p: Project, version = ''): Promise<ProjectForms> {
  const response = await client.get(formsUrl(p, version));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ProjectForms;
}

const layer = (f: ProjectForms, table: string): FormLayer =>
  f.layers.find((l) => l.table === table)!;
const field = (l: FormLayer, name: string): FormField => l.fields.find((x) => x.name === name)!;

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  anonymous = t.client();
  gpkg = await readFile(path.join(FIXTURE, 'survey.gpkg'));
  project = await createProject(t, { name: 'forms' });
  // v1: the .qgs; v2: the .qgz instead; v3: both (the mobile app refuses: several files).
  await commit(t, project.id, {
    added: {
      'survey.gpkg': gpkg,
      'survey.qgs': await readFile(path.join(FIXTURE, 'survey.qgs')),
      'photos/readme.txt': 'photos go here',
    },
  });
  await commit(t, project.id, {
    added: { 'survey.qgz': await readFile(path.join(FIXTURE, 'survey.qgz')) },
    removed: ['survey.qgs'],
  });
  await commit(t, project.id, {
    added: { 'old/copy.qgs': await readFile(path.join(FIXTURE, 'survey.qgs')) },
  });
  plain = await createProject(t, { name: 'plain', public: true });
  await commit(t, plain.id, { added: { 'data/survey.gpkg': gpkg } });
  const { user, client } = await signedInUser(t, 'reader');
  reader = client;
  await upsertProjectMembers(t.database.db, project.id, [{ userId: user.id, role: 'reader' }]);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /app/map/{namespace}/{name}/forms from a QGIS project', () => {
  it('lists every table with the QGIS layers first, matched through their data source', async () => {
    const f = await forms(admin, project, 'v1');
    expect(f).toMatchObject({
      version: 'v1',
      project_file: 'survey.qgs',
      project_file_problem: null,
    });
    expect(f.layers.map((l) => [l.name, l.file, l.table, l.geometry_type, l.crs])).toEqual([
      ['Plots', 'survey.gpkg', 'plots', 'POLYGON', 'EPSG:3857'],
      ['Species', 'survey.gpkg', 'species', null, null],
      ['Trees', 'survey.gpkg', 'trees', 'POINT', 'EPSG:4326'],
    ]);
  });

  it('gives the point layer its two tabs, the group inside, aliases and hidden fields', async () => {
    const trees = layer(await forms(admin, project, 'v1'), 'trees');
    expect(trees).toMatchObject({ editable: true, not_editable_reason: null, layout: 'tabs' });
    const outline = (items: typeof trees.items): unknown[] =>
      items.map((i) => (i.kind === 'field' ? i.field : [i.kind, i.label, outline(i.items ?? [])]));
    expect(outline(trees.items)).toEqual([
      ['tab', 'Tree', ['name', 'species', 'status', 'healthy', ['group', 'Measures', ['height']]]],
      ['tab', 'Survey', ['surveyed', 'photo', 'notes', 'surveyor']],
    ]);
    expect(field(trees, 'name')).toMatchObject({ alias: 'Tree name', label: 'Tree name' });
    expect(field(trees, 'uuid')).toMatchObject({ hidden: true, widget: { type: 'hidden' } });
    expect(trees.fields.filter((x) => x.hidden).map((x) => x.name)).toEqual(['uuid']);
  });

  it('describes each widget as QGIS configured it', async () => {
    const trees = layer(await forms(admin, project, 'v1'), 'trees');
    expect(field(trees, 'name').widget).toEqual({ type: 'text', multiline: false });
    expect(field(trees, 'notes').widget).toEqual({ type: 'text', multiline: true });
    expect(field(trees, 'status').widget).toEqual({
      type: 'value_map',
      options: [
        { label: 'Good', value: 'good' },
        { label: 'Poor', value: 'poor' },
        { label: 'Dead', value: 'dead' },
      ],
    });
    expect(field(trees, 'species').widget).toMatchObject({
      type: 'value_relation',
      layer_file: 'survey.gpkg',
      layer_table: 'species',
      key: 'code',
      value: 'label',
      filter: '"native" = 1',
      filter_applied: true,
      // "native" = 1 leaves the plane tree out; ordered by value.
      options: [
        { value: 'oak', label: 'Oak' },
        { value: 'pine', label: 'Pine' },
      ],
    });
    expect(field(trees, 'height').widget).toMatchObject({
      type: 'range',
      integer: false,
      min: 0,
      max: 120,
      step: 0.5,
      precision: 1,
    });
    expect(field(trees, 'surveyed').widget).toMatchObject({
      type: 'datetime',
      mode: 'datetime',
      display_format: 'dd.MM.yyyy HH:mm',
    });
    expect(field(trees, 'healthy').widget).toEqual({
      type: 'checkbox',
      checked: true,
      unchecked: false,
    });
    expect(field(trees, 'photo').widget).toEqual({ type: 'photo', directory: 'photos' });
  });

  it('names the widget shown as plain text instead', async () => {
    const trees = layer(await forms(admin, project, 'v1'), 'trees');
    expect(field(trees, 'surveyor')).toMatchObject({
      widget: { type: 'text', multiline: false },
      fallback: 'Color',
    });
    expect(trees.fields.filter((x) => x.fallback !== null).map((x) => x.name)).toEqual([
      'surveyor',
    ]);
  });

  it('gives the defaults it can compute and leaves other expressions empty', async () => {
    const trees = layer(await forms(admin, project, 'v1'), 'trees');
    expect(field(trees, 'surveyed').default).toEqual({ kind: 'now' });
    expect(field(trees, 'uuid').default).toEqual({ kind: 'uuid' });
    expect(field(trees, 'surveyor').default).toEqual({ kind: 'username' });
    expect(field(trees, 'status').default).toEqual({ kind: 'constant', value: 'good' });
    expect(field(trees, 'height')).toMatchObject({
      default: null,
      default_expression: 'round(rand(1, 10))',
    });
  });

  it('gives the constraints, the expression one by its description', async () => {
    const trees = layer(await forms(admin, project, 'v1'), 'trees');
    expect(field(trees, 'name').constraints).toEqual({
      not_null: true,
      unique: false,
      max_length: 50,
      expression: null,
      expression_description: null,
      strength: 'hard',
    });
    expect(field(trees, 'uuid').constraints).toMatchObject({ unique: true, max_length: 38 });
    expect(field(trees, 'height').constraints).toMatchObject({
      not_null: false,
      expression: '"height" < 100',
      expression_description: 'Height below 100 m',
    });
  });

  it('marks the layer QGIS keeps read-only as not editable', async () => {
    const f = await forms(admin, project, 'v1');
    expect(layer(f, 'plots')).toMatchObject({ editable: false, not_editable_reason: 'read_only' });
    expect(layer(f, 'species')).toMatchObject({ editable: true, layout: 'auto' });
  });

  it('reads the .qgz as the .qgs', async () => {
    const [qgs, qgz] = [await forms(admin, project, 'v1'), await forms(admin, project, 'v2')];
    expect(qgz.project_file).toBe('survey.qgz');
    expect(qgz.layers).toEqual(qgs.layers);
  });

  it('gives plain forms when the project has several QGIS project files', async () => {
    const f = await forms(admin, project);
    expect(f).toMatchObject({
      version: 'v3',
      project_file: null,
      project_file_problem: 'multiple',
    });
    const trees = layer(f, 'trees');
    expect(trees).toMatchObject({ name: 'trees', qgis_layer_id: null, layout: 'auto' });
    expect(field(trees, 'name')).toMatchObject({ alias: null, label: 'name', default: null });
    expect(layer(f, 'plots').editable).toBe(true);
  });
});

describe('GET …/forms without a QGIS project file', () => {
  it('gives every GeoPackage layer a plain form from its columns', async () => {
    const f = await forms(anonymous, plain);
    expect(f).toMatchObject({ project_file: null, project_file_problem: 'none' });
    const trees = layer(f, 'trees');
    expect(trees.file).toBe('data/survey.gpkg');
    expect(trees.fields.map((x) => [x.name, x.type, x.widget.type])).toEqual([
      ['name', 'text', 'text'],
      ['status', 'text', 'text'],
      ['species', 'text', 'text'],
      ['height', 'double', 'text'],
      ['surveyed', 'datetime', 'datetime'],
      ['photo', 'text', 'text'],
      ['notes', 'text', 'text'],
      ['healthy', 'boolean', 'checkbox'],
      ['uuid', 'text', 'text'],
      ['surveyor', 'text', 'text'],
    ]);
    expect(trees.items.map((i) => i.field)).toEqual(trees.fields.map((x) => x.name));
  });

  it('tells a visitor who may not upload that the layers are not editable by them', async () => {
    const f = await forms(anonymous, plain);
    expect(f.layers.every((l) => !l.editable && l.not_editable_reason === 'permission')).toBe(true);
  });
});

describe('caching and access', () => {
  it('answers 304 to a current ETag and keeps readers to reading', async () => {
    const first = await reader.get(formsUrl(project, 'v1'));
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, max-age=300');
    const again = await reader.get(formsUrl(project, 'v1'), {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const trees = layer(first.json() as ProjectForms, 'trees');
    expect(trees).toMatchObject({ editable: false, not_editable_reason: 'permission' });
  });

  it('refuses strangers and unknown versions', async () => {
    expect((await anonymous.get(formsUrl(project))).statusCode).toBe(403);
    expect((await admin.get(formsUrl(project, 'v9'))).statusCode).toBe(404);
    expect((await admin.get(formsUrl(project, 'x1'))).statusCode).toBe(400);
  });
});

describe('GET …/features/{layer}/{fid}', () => {
  it('gives the full geometry in EPSG:4326 for editing', async () => {
    const base = `/app/map/${t.config.globalWorkspace}/${project.name}/features`;
    const tree = (await admin.get(`${base}/trees/1?file=survey.gpkg`)).json() as MapFeature;
    expect(tree.geometry).toEqual({ type: 'Point', coordinates: [21.0122, 52.2297] });
    const plot = (await admin.get(`${base}/plots/1?file=survey.gpkg`)).json() as MapFeature;
    expect(plot.geometry?.type).toBe('Polygon');
    const ring = (plot.geometry!.coordinates as number[][][])[0]!;
    expect(ring).toHaveLength(5);
    expect(ring[0]![0]).toBeCloseTo(21.0116, 3);
  });
});
