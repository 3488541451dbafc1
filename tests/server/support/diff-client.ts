/**
 * A desktop client pushing GeoPackage diffs (v1 protocol, client-compat §5): it keeps its
 * basefile, edits a copy with SQL as a GIS client would, sends the changeset
 * (geodiff/create.ts) instead of the file, and afterwards applies the diff to its basefile
 * the way the server does (geodiff/apply.ts, stable), so the basefile holds the bytes the
 * server recorded for the version.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { applyChangeset } from '../../../server/src/geodiff/apply';
import { createChangeset } from '../../../server/src/geodiff/create';
import { registerSpatialFunctions } from '../../../server/src/geodiff/st-functions';
import type { TestClient } from './test-app';

export const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

export interface PushEntry {
  path: string;
  size: number;
  checksum: string;
  chunks: string[];
  diff?: { path: string; checksum: string; size: number };
}

export interface FileInfo {
  path: string;
  checksum: string;
  size: number;
  diff?: unknown;
}

/** Push start, chunks, finish (v1); returns the finish reply. */
export async function pushV1(
  client: TestClient,
  project: string,
  version: string,
  changes: { added?: PushEntry[]; updated?: PushEntry[]; removed?: PushEntry[] },
  chunks: Map<string, Uint8Array>,
) {
  const start = await client.post(`/v1/project/push/${project}`, {
    version,
    changes: {
      added: changes.added ?? [],
      updated: changes.updated ?? [],
      removed: changes.removed ?? [],
    },
  });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction?: string };
  if (!transaction) return start;
  for (const [id, bytes] of chunks) {
    const sent = await client.request('POST', `/v1/project/push/chunk/${transaction}/${id}`, {
      payload: Buffer.from(bytes),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  return client.post(`/v1/project/push/finish/${transaction}`);
}

const CHUNK = 10 * 1024 * 1024;

function chunked(bytes: Uint8Array, chunks: Map<string, Uint8Array>): string[] {
  const ids: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    const id = randomUUID();
    chunks.set(id, bytes.subarray(offset, offset + CHUNK));
    ids.push(id);
  }
  return ids;
}

/** A whole-file entry. */
export function wholeEntry(
  file: string,
  bytes: Uint8Array,
  chunks: Map<string, Uint8Array>,
): PushEntry {
  return { path: file, size: bytes.length, checksum: sha1(bytes), chunks: chunked(bytes, chunks) };
}

/** A diff-update entry as the python client makes it: top-level checksum = the basefile's. */
export function diffEntry(
  file: string,
  baseSha1: string,
  newSize: number,
  diff: Uint8Array,
  chunks: Map<string, Uint8Array>,
): PushEntry {
  return {
    path: file,
    size: newSize,
    checksum: baseSha1,
    chunks: chunked(diff, chunks),
    diff: { path: `${file}-diff-${randomUUID()}`, checksum: sha1(diff), size: diff.length },
  };
}

/** One GeoPackage of a project as a desktop client holds it. */
export class DiffClient {
  /** The version the client is at. */
  version = 0;
  /** SHA-1 the server answered for each version of the file. */
  readonly answered = new Map<number, string>();
  private n = 0;
  /** Milliseconds spent per step of pushEdit (edit, diff, hash, push, apply and hash), summed. */
  readonly spent = new Map<string, number>();

  private async step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.spent.set(name, (this.spent.get(name) ?? 0) + performance.now() - started);
    }
  }

  constructor(
    private readonly client: TestClient,
    /** `<namespace>/<name>` */
    private readonly project: string,
    readonly file: string,
    /** A folder of the client's own. */
    private readonly dir: string,
  ) {}

  /** The basefile: the bytes of the file at `version`, as the server keeps them. */
  get basefile(): string {
    return path.join(this.dir, 'base.gpkg');
  }

  /** The basefile's bytes and SHA-1, kept from the last push (read and hashed once each). */
  private base: { bytes: Buffer; sha1: string } | null = null;

  async baseBytes(): Promise<Buffer> {
    return (await this.baseOf()).bytes;
  }

  async baseSha1(): Promise<string> {
    return (await this.baseOf()).sha1;
  }

  private async baseOf(): Promise<{ bytes: Buffer; sha1: string }> {
    this.base ??= this.readBase();
    return this.base;
  }

  /**
   * Reads and hashes the basefile in one synchronous step (a few milliseconds for 12 MB): read
   * asynchronously, its 24 chunks of 512 KiB each waited for a turn of the event loop, which
   * the server in this process (the commits beside, the database) held for seconds at a time
   * on a busy machine.
   */
  private readBase(): { bytes: Buffer; sha1: string } {
    const bytes = readFileSync(this.basefile);
    return { bytes, sha1: sha1(bytes) };
  }

  /** Pushes `bytes` as the file's first version (it must be the project's next version). */
  async pushWhole(bytes: Buffer, basefileFrom?: string): Promise<FileInfo> {
    const chunks = new Map<string, Uint8Array>();
    const added = this.version === 0 || !(await stat(this.basefile).catch(() => null));
    const entry = wholeEntry(this.file, bytes, chunks);
    const reply = await pushV1(
      this.client,
      this.project,
      `v${this.version}`,
      added ? { added: [entry] } : { updated: [entry] },
      chunks,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    const info = this.take(reply.json());
    if (basefileFrom) await copyFile(basefileFrom, this.basefile);
    else await writeFile(this.basefile, bytes);
    this.base = basefileFrom ? null : { bytes, sha1: entry.checksum };
    expect(info.checksum).toBe(entry.checksum);
    return info;
  }

  private take(body: { version: string; files: FileInfo[] }): FileInfo {
    this.version = Number(body.version.slice(1));
    const info = body.files.find((f) => f.path === this.file)!;
    this.answered.set(this.version, info.checksum);
    return info;
  }

  /** The client's own working file (kept between edits with `keepLive`). */
  private live: string | null = null;

  /**
   * Edits a copy of the basefile with `sql` (with `keepLive`, the client's working file,
   * kept from edit to edit as a GIS client keeps it), pushes the changeset, applies it to
   * the basefile; checks the server's checksum is the basefile's. Returns the diff's bytes.
   */
  async pushEdit(
    sql: string | ((db: Database.Database) => void),
    options: { keepLive?: boolean } = {},
  ): Promise<Buffer> {
    let live = this.live;
    if (!live) {
      live = path.join(this.dir, `live-${++this.n}.gpkg`);
      await copyFile(this.basefile, live);
    }
    const file = live;
    await this.step('edit', () => {
      const db = new Database(file);
      registerSpatialFunctions(db);
      try {
        if (typeof sql === 'string') db.exec(sql);
        else db.transaction(() => sql(db))();
      } finally {
        db.close();
      }
    });
    const diff = await this.step('diff', () => Buffer.from(createChangeset(this.basefile, file)));
    const baseSha1 = await this.step('hash', () => this.baseSha1());
    // The new size the client declares: its live file's (the server's may differ).
    const chunks = new Map<string, Uint8Array>();
    const entry = diffEntry(this.file, baseSha1, (await stat(file)).size, diff, chunks);
    const reply = await this.step('push', () =>
      pushV1(this.client, this.project, `v${this.version}`, { updated: [entry] }, chunks),
    );
    expect(reply.statusCode, reply.body).toBe(200);
    const info = this.take(reply.json());
    // The basefile's new bytes and SHA-1 taken as the diff is applied, in the same step.
    await this.step('apply and hash', () => {
      applyChangeset(this.basefile, diff, { stable: true });
      this.base = this.readBase();
    });
    expect(info.checksum).toBe(await this.baseSha1());
    if (options.keepLive) this.live = live;
    else await rm(live, { force: true });
    return diff;
  }
}
