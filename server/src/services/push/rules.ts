/**
 * The push's rules (api-reference §1.2 step 5), one set for v1 and v2: what a client may
 * list, checked before anything is stored. Texts are the reference's.
 */
import { HttpProblem } from '../../errors';
import {
  hasTrailingSpaceFolder,
  isUnsupportedName,
  isUnsupportedType,
  trailingSpace,
  unsupportedName,
  unsupportedType,
} from '../../lib/push-rules';
import { CHUNK_SIZE } from '../../storage/staging';
import type { PushDialect } from './dialect';
import { pushDiffOf, type PushDiff } from './diffs';
import type { PushChanges, PushFileInput } from './plan';
import { isVersionedFile } from '../../schemas/protocol';

export const VERSION_MISMATCH = 'Version mismatch';
/** `code` of a push refused for its files (422), in the v1 and the v2 protocol. */
export const UPLOAD_ERROR_CODE = 'UploadError';
export const FIRST_PUSH_V0 = 'First push should be with v0';
export const NO_CHANGES = 'No changes';
export const NOT_UNIQUE = 'Not unique changes';
export const FILE_NOT_VALID = 'File is not valid';
export const BIG_CHUNK = `Chunk size exceeds maximum allowed size ${(CHUNK_SIZE / 1024 / 1024).toFixed(1)} MB`;
export const invalidChunks = (path: string, count: number) =>
  `File '${path}' must be sent in ${count} chunk(s) of at most 10 MB`;
export const invalidChecksum = (path: string) => `Invalid checksum of '${path}'`;

const SHA1 = /^[0-9a-fA-F]{40}$/;

/** `v12` → 12 (every `v` and whitespace stripped, like the reference); null when invalid. */
export function parsePushVersion(text: string | undefined): number | null {
  const digits = (text ?? 'v0').replace(/[v\s]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** Runs a check of diffs.ts (which answers 400) in the dialect's words. */
export function inDialect<T>(dialect: PushDialect, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof HttpProblem && typeof error.detail === 'string') {
      throw dialect.invalid(error.detail);
    }
    throw error;
  }
}

/**
 * The structural checks; resolves each added or updated file's diff (GeoPackage diff
 * updates: the chunks carry the diff). Linear in the number of files.
 */
export function checkChanges(
  changes: PushChanges,
  dialect: PushDialect,
): Map<PushFileInput, PushDiff | null> {
  const { added, updated, removed } = changes;
  if (added.length + updated.length + removed.length === 0) throw dialect.invalid(NO_CHANGES);
  const paths = new Set<string>();
  for (const file of [...added, ...updated, ...removed]) {
    if (paths.has(file.path)) throw dialect.invalid(NOT_UNIQUE);
    paths.add(file.path);
  }
  const diffs = new Map<PushFileInput, PushDiff | null>();
  const chunkIds = new Set<string>();
  const check = (file: PushFileInput, list: 'added' | 'updated') => {
    if (isVersionedFile(file.path) && file.size === 0) throw dialect.invalid(FILE_NOT_VALID);
    if (isUnsupportedName(file.path)) throw dialect.invalid(unsupportedName(file.path));
    if (isUnsupportedType(file.path)) throw dialect.invalid(unsupportedType(file.path));
    if (list === 'added' && hasTrailingSpaceFolder(file.path)) {
      throw dialect.invalid(trailingSpace(file.path));
    }
    const diff = inDialect(dialect, () => pushDiffOf(file, list));
    if (!SHA1.test(file.checksum)) throw dialect.invalid(invalidChecksum(file.path));
    const chunks = file.chunks ?? [];
    const expected = Math.ceil((diff?.size ?? file.size) / CHUNK_SIZE);
    if (chunks.length !== expected) throw dialect.invalid(invalidChunks(file.path, expected));
    if (!dialect.sharedChunks) {
      for (const chunk of chunks) {
        if (chunkIds.has(chunk)) throw dialect.invalid(NOT_UNIQUE);
        chunkIds.add(chunk);
      }
    }
    diffs.set(file, diff);
  };
  for (const file of added) check(file, 'added');
  for (const file of updated) check(file, 'updated');
  for (const file of removed) {
    if (isUnsupportedName(file.path)) throw dialect.invalid(unsupportedName(file.path));
  }
  return diffs;
}
