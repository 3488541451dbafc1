/**
 * GeoPackages opened for the map, keyed by their content (SHA-1), so versions sharing bytes
 * share everything computed from them.
 *
 * - On disk: a copy of the blob in DATA_DIR/cache/map/<sha1>.gpkg (the blob store may be
 *   S3), written to a temporary name and renamed, its WAL flag cleared so it opens
 *   read-only without a -shm file. The folder is kept under DISK_CACHE_BYTES: the least
 *   recently used copies are deleted first.
 * - In memory: at most OPEN_FILES files open read-only (better-sqlite3) with their layers.
 *   Every use is synchronous between taking a file and finishing with it, so closing the
 *   least recently used file never pulls one from under a request.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type { AppContext } from '../../context';
import { HttpProblem } from '../../errors';
import { openStoredFile } from '../file-store';
import { readLayers, type LayerInfo } from './gpkg';
import { Lru } from './lru';

/** Most bytes of GeoPackage copies kept in DATA_DIR/cache/map. */
export const DISK_CACHE_BYTES = 4 * 1024 ** 3;
/** Most GeoPackages open at once. */
export const OPEN_FILES = 16;

export const FILE_UNREADABLE = 'The file cannot be read as a GeoPackage';

export interface MapFile {
  checksum: string;
  /** The read-only copy on disk (a worker thread may open it too). */
  path: string;
  db: Database.Database;
  layers: Map<string, LayerInfo>;
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
      files: new Lru<MapFile>(OPEN_FILES, (_key, file) => file.db.close()),
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
async function localCopy(
  ctx: AppContext,
  blob: { key: string; checksum: string; size: number },
): Promise<string> {
  const dir = cacheDir(ctx);
  const name = `${blob.checksum}.gpkg`;
  const file = path.join(dir, name);
  const existing = await stat(file).catch(() => null);
  if (existing?.size === blob.size) {
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
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

function openFile(checksum: string, file: string): MapFile {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const layers = readLayers(db);
    return {
      checksum,
      path: file,
      db,
      layers: new Map(layers.map((layer) => [layer.name, layer])),
    };
  } catch (error) {
    db?.close();
    if (error instanceof Database.SqliteError) throw new HttpProblem(422, FILE_UNREADABLE);
    throw error;
  }
}

/** Whether the GeoPackage with these bytes is open (its layers answer at once). */
export function isOpen(ctx: AppContext, checksum: string): boolean {
  return stateOf(ctx).files.has(checksum);
}

/** The open GeoPackage with these bytes (copied and opened when needed). */
export async function mapFile(
  ctx: AppContext,
  blob: { key: string; checksum: string; size: number },
): Promise<MapFile> {
  const state = stateOf(ctx);
  const open = state.files.get(blob.checksum);
  if (open) return open;
  let loading = state.loading.get(blob.checksum);
  if (!loading) {
    loading = (async () => {
      const file = openFile(blob.checksum, await localCopy(ctx, blob));
      state.files.set(blob.checksum, file);
      return file;
    })().finally(() => state.loading.delete(blob.checksum));
    state.loading.set(blob.checksum, loading);
  }
  return loading;
}

/** Closes every open file of the app (shutdown, tests). */
export function closeMapFiles(ctx: AppContext): void {
  states.get(ctx)?.files.clear();
}
