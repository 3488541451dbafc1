/**
 * The folder of an edit batch's changesets on their way into the blob store (edits.ts): one
 * per process, under the data folder's cache/edits, made on first use; the folders a stopped
 * process left (untouched for a day) are removed then.
 */
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context';

/** This process's folder for batch changesets, by data folder (made once; module comment). */
const scratchDirs = new Map<string, Promise<string>>();

/** Folders in cache/edits untouched for longer than this are a stopped process's: removed. */
const STALE_SCRATCH_MS = 24 * 60 * 60 * 1000;

/**
 * The process's folder for batch changesets. Made again when gone (another process may take an
 * idle one's for a stopped one's).
 */
export async function scratchDir(ctx: Pick<AppContext, 'config'>): Promise<string> {
  const root = path.join(ctx.config.dataDir, 'cache', 'edits');
  let made = scratchDirs.get(root);
  if (!made) {
    made = firstUse(root);
    made.catch(() => scratchDirs.delete(root));
    scratchDirs.set(root, made);
  }
  const dir = await made;
  await mkdir(dir, { recursive: true });
  return dir;
}

async function firstUse(root: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const now = Date.now();
  for (const name of await readdir(root)) {
    const old = path.join(root, name);
    const stats = await stat(old).catch(() => null);
    if (stats && now - stats.mtimeMs > STALE_SCRATCH_MS) {
      await rm(old, { recursive: true, force: true });
    }
  }
  return mkdtemp(path.join(root, 'process-'));
}
