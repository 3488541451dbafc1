import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { scratchDir } from './scratch';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'waymark-scratch-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const ctx = () => ({ config: { dataDir } }) as Parameters<typeof scratchDir>[0];
const root = () => path.join(dataDir, 'cache', 'edits');

it('gives one folder per process; a stopped process’s old folder goes, a recent one stays', async () => {
  const stale = path.join(root(), 'batch-old');
  const recent = path.join(root(), 'process-other');
  for (const dir of [stale, recent]) {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'left.diff'), 'x');
  }
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
  await utimes(stale, twoDaysAgo, twoDaysAgo);

  const dir = await scratchDir(ctx());
  expect(await scratchDir(ctx())).toBe(dir);
  expect(path.dirname(dir)).toBe(root());
  expect((await readdir(root())).sort()).toEqual([path.basename(dir), 'process-other'].sort());
});

it('makes the folder again when it was taken away', async () => {
  const dir = await scratchDir(ctx());
  await rm(dir, { recursive: true });
  expect(await scratchDir(ctx())).toBe(dir);
  expect(await readdir(dir)).toEqual([]);
});
