import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand, type CommandContext } from '../../server/src/admin/commands';
import { createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';

describe('admin command project import', () => {
  let t: TestApp;
  let ctx: CommandContext;
  let folder: string;

  beforeAll(async () => {
    t = await createTestApp();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-import-'));
    ctx = { config: t.config, cwd: path.dirname(folder), getDatabase: async () => t.database };
    await createProject(t, { name: 'survey' });
    fs.mkdirSync(path.join(folder, 'data', '.mergin'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'survey.qgs'), '<qgis/>');
    fs.writeFileSync(path.join(folder, 'data', 'notes.txt'), 'first notes');
    fs.writeFileSync(path.join(folder, 'data', 'layer.gpkg-wal'), 'ignored');
    fs.writeFileSync(path.join(folder, 'data', '.mergin', 'state.json'), 'ignored');
    fs.writeFileSync(path.join(folder, '.DS_Store'), 'ignored');
  });

  afterAll(async () => {
    await t?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const run = (...argv: string[]) => runAdminCommand(argv, ctx);
  const raw = (file: string) =>
    t.app.inject({ method: 'GET', url: `/v1/project/raw/waymark/survey?file=${file}` });

  it('imports a folder (relative to the caller) as a new version, skipping ignored names', async () => {
    const result = await run('project', 'import', 'waymark', 'survey', path.basename(folder));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(
      'Created v1 of waymark/survey: 2 added, 0 updated, 0 removed, 0 unchanged.',
    );
    const notes = await raw('data/notes.txt');
    expect(notes.statusCode).toBe(403); // private project, anonymous caller
    const admin = t.client();
    await admin.login('admin', ADMIN_PASSWORD);
    const detail = await admin.get('/v1/project/waymark/survey');
    expect(detail.json().files.map((f: { path: string }) => f.path)).toEqual([
      'data/notes.txt',
      'survey.qgs',
    ]);
    expect(detail.json()).toMatchObject({ version: 'v1', tags: ['valid_qgis', 'input_use'] });
  });

  it('adds only what changed, and removes missing files with --replace', async () => {
    expect((await run('project', 'import', 'waymark', 'survey', folder)).stdout).toContain(
      'No changes: all 2 files are already in the project.',
    );
    fs.writeFileSync(path.join(folder, 'data', 'notes.txt'), 'second notes');
    fs.rmSync(path.join(folder, 'survey.qgs'));
    const merged = await run('project', 'import', 'waymark', 'survey', folder);
    expect(merged.stdout).toContain('Created v2 of waymark/survey: 0 added, 1 updated, 0 removed');
    const replaced = await run('project', 'import', 'waymark', 'survey', folder, '--replace');
    expect(replaced.stdout).toContain(
      'Created v3 of waymark/survey: 0 added, 0 updated, 1 removed',
    );
  });

  it('refuses unknown projects, missing folders and bad arguments', async () => {
    expect(await run('project', 'import', 'waymark', 'nope', folder)).toMatchObject({
      code: 1,
      stderr: 'Project "waymark/nope" does not exist\n',
    });
    expect(await run('project', 'import', 'nowhere', 'survey', folder)).toMatchObject({
      code: 1,
      stderr: 'Workspace "nowhere" does not exist\n',
    });
    const missing = await run('project', 'import', 'waymark', 'survey', '/no/such/folder');
    expect(missing).toMatchObject({ code: 1, stderr: '/no/such/folder is not a folder\n' });
    const usage = await run('project', 'import', 'waymark');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Error: Missing <project> <folder>');
  });
});
