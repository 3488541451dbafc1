/**
 * GeoPackages prepared for the map, keyed by their content (SHA-1), so versions sharing bytes
 * share everything computed from them.
 *
 * - On disk: a copy of the blob in DATA_DIR/cache/map/<sha1>.gpkg (the blob store may be
 *   S3), written to a temporary name and renamed, its WAL flag cleared so it opens
 *   read-only without a -shm file. The folder is kept under DISK_CACHE_BYTES: the least
 *   recently used copies are deleted first; a copy is made again when a file still known
 *   here was deleted meanwhile.
 * - In memory: the layers of at most KNOWN_FILES files, as the map reader (reader.ts, in its
 *   own processes) read them. The file itself is opened only there.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context';
import type { MapLayer } from '../../schemas/map';
import { openStoredFile } from '../file-store';
import { Lru } from './lru';
import { FILE_TOO_COMPLEX, readMap } from './read';

/** Most bytes of GeoPackage copies kept in DATA_DIR/cache/map. */
export const DISK_CACHE_BYTES = 4 * 1024 ** 3;
/** Most files whose layers are kept in memory. */
export const KNOWN_FILES = 256;

export interface MapFile {
  checksum: string;
  /** The read-only copy on disk, which the map reader opens. */
  path: string;
  layers: Map<string, MapLayer>;
}

interface StoreState {
  files: Lru<MapFile>;
  loading: Map<string, Promise<MapFile>>;
}

const states = new WeakMap<AppContext, StoreState>();

function stateOf(ctx: AppContext): StoreState {
  let state = states.get(ctx);
  if (!state) {
    state = {
      files: new Lru<MapFile>(KNOWN_FILES),
      loading: new Map(),
    };
    states.set(ctx, state);
  }
  return state;
}

export function cacheDir(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'cache', 'map');
}

/** SQLite's header bytes 18-19 say WAL (2): set rollback (1), as the copy is ours. */
async function clearWalFlag(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const header = Buffer.alloc(20);
    const { bytesRead } = await handle.read(header, 0, 20, 0);
    if (bytesRead === 20 && header[18] === 2 && header[19] === 2) {
      await handle.write(Buffer.from([1, 1]), 0, 2, 18);
    }
  } finally {
    await handle.close();
  }
}

/** Deletes the least recently used copies until the folder is within its budget. */
async function trimDiskCache(dir: string, keep: string): Promise<void> {
  const names = await readdir(dir);
  const files = await Promise.all(
    names.map(async (name) => {
      const info = await stat(path.join(dir, name)).catch(() => null);
      return info ? { name, size: info.size, used: info.mtimeMs } : null;
    }),
  );
  const present = files.filter((f): f is NonNullable<typeof f> => f !== null);
  let total = present.reduce((sum, f) => sum + f.size, 0);
  present.sort((a, b) => a.used - b.used);
  for (const file of present) {
    if (total <= DISK_CACHE_BYTES) break;
    if (file.name === keep) continue;
    await rm(path.join(dir, file.name), { force: true });
    total -= file.size;
  }
}

/** The local copy of a blob, made when missing. */
export async function localCopy(
  ctx: AppContext,
  blob: { key: string; checksum: string; size: number },
): Promise<string> {
  const dir = cacheDir(ctx);
  const name = `${blob.checksum}.gpkg`;
  const file = path.join(dir, name);
  const existing = await stat(file).catch(() => null);
  if (existing?.size === blob.size) {
    // Its time says when it was last used (trimDiskCache), to the minute.
    if (Date.now() - existing.mtimeMs > 60_000) {
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
    }
    return file;
  }
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${randomUUID()}.part`);
  try {
    await pipeline(await openStoredFile(ctx, blob.key), createWriteStream(temp));
    const written = await stat(temp);
    if (written.size !== blob.size) {
      throw new Error(`Blob ${blob.key}: ${written.size} bytes copied, ${blob.size} expected`);
    }
    await clearWalFlag(temp);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  await trimDiskCache(dir, name);
  return file;
}

/** The layers of the copy `file` with these bytes, as the map reader reads them. */
async function openFile(
  ctx: AppContext,
  checksum: string,
  file: string,
  owner: string | undefined,
): Promise<MapFile> {
  const layers = await readMap(
    ctx,
    { kind: 'layers', file },
    { lane: 'interactive', verdictKey: `${checksum}/layers`, tooHeavy: FILE_TOO_COMPLEX, owner },
  );
  return { checksum, path: file, layers: new Map(layers.map((layer) => [layer.name, layer])) };
}

/** Whether the layers of the GeoPackage with these bytes are known (they answer at once). */
export function isKnown(ctx: AppContext, checksum: string): boolean {
  return stateOf(ctx).files.has(checksum);
}

/**
 * The GeoPackage with these bytes, its copy on disk made when missing and its layers read
 * when not known (for `owner`, lib/sandbox).
 */
export async function mapFile(
  ctx: AppContext,
  blob: { key: string; checksum: string; size: number },
  owner?: string,
): Promise<MapFile> {
  const state = stateOf(ctx);
  const known = state.files.get(blob.checksum);
  if (known) {
    // The copy may have been trimmed from the disk cache meanwhile: made again then.
    await localCopy(ctx, blob);
    return known;
  }
  let loading = state.loading.get(blob.checksum);
  if (!loading) {
    loading = (async () => {
      const file = await openFile(ctx, blob.checksum, await localCopy(ctx, blob), owner);
      state.files.set(blob.checksum, file);
      return file;
    })().finally(() => state.loading.delete(blob.checksum));
    state.loading.set(blob.checksum, loading);
  }
  return loading;
}

/** Forgets every file of the app (shutdown, tests). */
export function closeMapFiles(ctx: AppContext): void {
  states.get(ctx)?.files.clear();
}
