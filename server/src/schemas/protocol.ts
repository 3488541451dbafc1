/**
 * Protocol constants the server and the web app both read (imported by the client as
 * `@contract/protocol`). Plain values only: no imports, nothing Node- or browser-specific.
 */

/** Size of an upload chunk in bytes (api-reference §7: 10 MiB). */
export const CHUNK_SIZE = 10 * 1024 * 1024;

/**
 * Body limit of the push-start and v2-versions routes (every other route keeps the server's
 * 1 MiB): 32 MiB, room for a first push of about 150,000 files as the desktop client lists
 * them (about 204 bytes each).
 */
export const PUSH_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * Optional header making a finish retry-safe (the reference's `Mm-push-id`; header names are
 * case-insensitive, and Node hands them to the server in lower case).
 */
export const PUSH_ID_HEADER = 'mm-push-id';

/**
 * Optional header of a v1 chunk request (a Waymark addition, docs/decisions/0104): the
 * request carries the chunk's bytes from this offset on, continuing a prefix the server
 * holds (the status call's `chunk_prefixes`). Lower case, as Node hands it over.
 */
export const CHUNK_OFFSET_HEADER = 'waymark-chunk-offset';

/** Code of the 409 answered when the server does not hold the prefix a request continues. */
export const CHUNK_PREFIX_GONE = 'ChunkPrefixGone';

/**
 * The server's answers (400 `detail`) to a write whose CSRF token it does not take (reference
 * §4.2). Each is mended by a fresh token (GET /app/auth/refresh/csrf, which also sets a
 * missing secret cookie): clients fetch one and repeat the write once. Spec 000 names the
 * expired one; the others happen after the secret cookie changed (signed in again elsewhere).
 */
export const CSRF_REFUSALS = {
  missing: 'The CSRF token is missing.',
  sessionMissing: 'The CSRF session token is missing.',
  expired: 'The CSRF token has expired.',
  invalid: 'The CSRF token is invalid.',
  mismatch: 'The CSRF tokens do not match.',
} as const;

/**
 * Fewest characters of a username prefix the user search (GET /app/auth/user/search) looks up;
 * shorter texts find nobody, so the share dialog searches from this length on.
 */
export const USER_SEARCH_MIN_LENGTH = 3;

/**
 * Versioned files (spec 001 §1): GeoPackages and SQLite files (SpatiaLite or GDAL's layout).
 * Their edits get row-level changesets, may be pushed as diffs, are compared row by row, and
 * are the files the Map tab and 'Show on map' draw (issue 19). Other extensions SQLite files
 * may have (.db, .spatialite) are left out: most such files hold no geometry. The one home of
 * this rule: the server, the web app and SQL (`VERSIONED_FILE_PATTERN.source`, a POSIX regex
 * as well, with `~*`) all ask here.
 */
export const VERSIONED_EXTENSIONS = ['gpkg', 'sqlite'] as const;
export const VERSIONED_FILE_PATTERN = new RegExp(`\\.(${VERSIONED_EXTENSIONS.join('|')})$`, 'i');

/** Whether a project path is a versioned file (see VERSIONED_EXTENSIONS). */
export function isVersionedFile(path: string): boolean {
  return VERSIONED_FILE_PATTERN.test(path);
}

/** Whether a project path is a GeoPackage: the versioned kind field capture edits. */
export function isGeoPackage(path: string): boolean {
  return /\.gpkg$/i.test(path);
}
/**
 * The push's refusals (`detail` of a 400 or 422) the web app's upload worker decides on
 * (src/features/uploads/worker/answers.ts): `busy` ones mean "try again later" and are
 * retried; `canceled` means the transaction is gone; `filesMismatch` starts the finish
 * refusal naming files whose size or SHA-1 differ from the plan (they are sent again once).
 */
export const PUSH_REFUSALS = {
  anotherProcess: 'Another process is running. Please try later.',
  finishing: 'The upload is being finished',
  canceled: 'Upload was probably canceled',
  filesMismatch: 'Files do not match their declared size or checksum',
} as const;

/** The push refusals that mean "busy": the same request succeeds later. */
export const PUSH_BUSY_REFUSALS: readonly string[] = [
  PUSH_REFUSALS.anotherProcess,
  PUSH_REFUSALS.finishing,
];

/** `code` of a refusal for passing the workspace's storage allowance (422). */
export const STORAGE_LIMIT_CODE = 'StorageLimitHit';

/**
 * `code` of a refused edit batch (422) whose photos' chunks are missing or do not make the
 * photo: the web app uploads the photos' chunks again and sends the batch once more.
 */
export const PHOTO_CHUNKS_CODE = 'PhotoChunks';

/** `code` of a refused project access change (400), with the usernames it could not apply. */
export const UPDATE_ACCESS_ERROR_CODE = 'UpdateProjectAccessError';

/**
 * A versioned file's changes that cannot be calculated (spec 001 §2 "File version detail"):
 * the server's changeset `error` is this text, or this text, ': ' and the reason
 * (`changesImpossible`); the web app shows the text and the reason apart
 * (`changesImpossibleReason`).
 */
export const CHANGES_CANNOT_BE_CALCULATED = 'Changes cannot be calculated';

/** The changeset error naming why the changes cannot be calculated. */
export function changesImpossible(reason: string): string {
  return `${CHANGES_CANNOT_BE_CALCULATED}: ${reason}`;
}

/** The reason a changeset error names (`changesImpossible`), or null when it names none. */
export function changesImpossibleReason(error: string | null | undefined): string | null {
  const prefix = `${CHANGES_CANNOT_BE_CALCULATED}: `;
  return error?.startsWith(prefix) ? error.slice(prefix.length) : null;
}

/** The answer (400 `detail`) to an email confirmation link that is unknown, used or expired. */
export const INVALID_TOKEN = 'Invalid token';
