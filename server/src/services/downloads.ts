/**
 * Downloads (api-reference A.9): one file's bytes (GET /v1/project/raw/...) and the whole
 * project as a ZIP archive (GET /v1/project/download/...?format=zip). Both stream the files'
 * bytes (services/file-store/: from the blob store, or rebuilt when a version is stored as
 * its diff); the routes add the HTTP details (ranges, HEAD, headers).
 */
import type { Readable } from 'node:stream';
import type { AppContext } from '../context';
import {
  findCurrentFile,
  findFileAtVersion,
  findVersion,
  listCurrentFiles,
  listFilesAtVersion,
  type FileRow,
} from '../db/queries/files';
import type { User } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { baseName, isValidProjectPath } from '../lib/paths';
import { sniffContentType, SNIFF_BYTES } from '../lib/sniff';
import { worthCompressing, type ZipEntry } from '../lib/zip';
import { openStoredFile, prepareStoredFile, storedFile, type StoredFile } from './file-store';
import { projectFor, type ProjectAccess, type ProjectRef } from './permissions';
import { parseVersionName, VERSION_NOT_FOUND } from './project-detail';
import type { ArchiveQuery, RawQuery } from '../schemas/downloads';
import { isVersionedFile } from '../schemas/protocol';

export const DIFF_NEEDS_VERSION = 'Changeset must be requested for particular file version';
/** Largest project (bytes at the requested version) served as one ZIP archive: 10 GiB. */
export const MAX_DOWNLOAD_ARCHIVE_SIZE = 10 * 1024 ** 3;
export const ARCHIVE_TOO_LARGE =
  'The total size of requested files is too large to download as a single zip, please use different method/client for download';

export const fileNotFound = (file: string) => `File ${file} not found`;

/** What the route needs to answer a raw download. */
export interface BlobDownload {
  blobKey: string;
  size: number;
  /** SHA-1 of the bytes (the ETag). */
  checksum: string;
  /** Name for Content-Disposition. */
  fileName: string;
  contentType: string;
  /** Opens the bytes, or an inclusive range of them. */
  open(range?: { start: number; end: number }): Promise<Readable>;
}

async function readHead(file: StoredFile, size: number): Promise<Buffer> {
  if (size === 0) return Buffer.alloc(0);
  const stream = await file.open({ start: 0, end: Math.min(size, SNIFF_BYTES) - 1 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A file of a project the caller may read (as downloads check it: read access, public
 * projects for anyone), at `version` or the latest (null); 404 when there is none. `granted`:
 * read access already established otherwise (a view link).
 */
export async function findReadableFile(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  file: string,
  version: number | null,
  granted?: ProjectAccess,
): Promise<{ access: ProjectAccess; row: FileRow }> {
  const access = granted ?? (await projectFor(ctx, caller, ref, 'read'));
  if (!isValidProjectPath(file)) throw notFound(fileNotFound(file));
  if (version !== null && version > access.project.latestVersion) {
    throw notFound(VERSION_NOT_FOUND);
  }
  const db = ctx.database.db;
  const row =
    version === null
      ? await findCurrentFile(db, access.project.id, file)
      : await findFileAtVersion(db, access.project.id, file, version);
  if (!row) throw notFound(fileNotFound(file));
  return { access, row };
}

/** GET /v1/project/raw/{namespace}/{name}: finds the file (or diff) to send. */
export async function prepareRawDownload(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: RawQuery,
): Promise<BlobDownload> {
  const { file } = query;
  const version = parseVersionName(query.version);
  // The reference checks these before the project and the permission.
  if (query.diff) {
    if (!isVersionedFile(file)) throw notFound(`No diff in particular file ${file})`);
    if (version === null) throw badRequest(DIFF_NEEDS_VERSION);
  }
  const { row } = await findReadableFile(ctx, caller, ref, file, version);

  let target = { blobKey: row.blobKey, size: row.size, checksum: row.checksum, name: row.path };
  if (query.diff) {
    if (row.change !== 'update_diff' || !row.diff) {
      throw notFound(`No diff in particular file ${file} version`);
    }
    const { diff } = row;
    target = { blobKey: diff.blob_key, size: diff.size, checksum: diff.checksum, name: diff.path };
  }
  // Sniffed, then sent: how the bytes are stored is looked up once.
  const bytes = storedFile(ctx, target.blobKey);
  const head = await readHead(bytes, target.size);
  return {
    blobKey: target.blobKey,
    size: target.size,
    checksum: target.checksum,
    fileName: baseName(target.name),
    contentType: sniffContentType(head),
    open: (range) => bytes.open(range),
  };
}

export interface ProjectArchive {
  fileName: string;
  entries: ZipEntry[];
}

/** GET /v1/project/download/{namespace}/{name}?format=zip: the archive's entries. */
export async function prepareProjectArchive(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: ArchiveQuery,
): Promise<ProjectArchive> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const db = ctx.database.db;
  const requested = parseVersionName(query.version);
  const version = requested ?? access.project.latestVersion;
  let size = access.project.diskUsage;
  if (requested !== null) {
    const row = await findVersion(db, access.project.id, requested);
    if (!row) throw notFound(VERSION_NOT_FOUND);
    size = row.projectSize;
  }
  if (size > MAX_DOWNLOAD_ARCHIVE_SIZE) throw badRequest(ARCHIVE_TOO_LARGE);

  const files =
    requested === null
      ? await listCurrentFiles(db, access.project.id)
      : await listFilesAtVersion(db, access.project.id, requested);
  // Files stored as diffs are rebuilt before the archive's answer starts: one that cannot be
  // is a clean error, not a broken archive.
  for (const file of files) {
    if (isVersionedFile(file.path)) await prepareStoredFile(ctx, file.blobKey);
  }
  const fallbackTime = access.project.updatedAt;
  return {
    fileName: `${access.project.name}-v${version}.zip`,
    entries: files.map((file) => ({
      name: file.path,
      size: file.size,
      mtime: file.mtime ?? fallbackTime,
      compress: worthCompressing(file.path),
      open: () => openStoredFile(ctx, file.blobKey),
    })),
  };
}
