/**
 * Time travel (issue 20): restoring a whole version or one file, and the record a version
 * made by time travel carries (`origin` in the version list and detail of schemas/history.ts).
 *
 * Every route here makes an ordinary new version through the push core (services/push/):
 * no version is removed; the project's push lock, the administrator's lock and the storage
 * allowance apply as for any push; GeoPackages are stored as diffs where the server can make
 * them, so desktop clients pull a diff. Writers and above (`upload`); a reader gets 403.
 *
 * - `POST /app/project/restore/{namespace}/{name}`, body `RestoreVersionBody`
 *   → 201 `NewVersion`: a new version whose files equal those of `version` (bytes): files
 *   added since are removed, removed ones come back, changed ones get that version's bytes.
 *   400: not `vN`, or the files already equal that version's; 404: no such version;
 *   409: another push is running (retry); 422: the storage allowance; 423: project locked.
 * - `POST /app/project/restore-file/{namespace}/{name}`, body `RestoreFileBody`
 *   → 201 `NewVersion`: one file back to its content at `version` (a file that did not exist
 *   at `version` is removed). 400/404/409/422/423 as above; 404 also when the path never
 *   existed in the project at or before `version` and is not current.
 *
 * Both accept an `Mm-push-id` header (protocol.ts): a retried request with the same id
 * answers the first one's version instead of making another.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, StringEnum, VersionNameSchema } from './common';

/** What a version made by time travel did (absent on other versions). */
export const VERSION_ORIGIN_ACTIONS = [
  'restore_version',
  'restore_file',
  'keep_copy',
  'discard_copy',
] as const;
export const VersionOriginSchema = Type.Object({
  action: StringEnum(VERSION_ORIGIN_ACTIONS),
  /** restore_version / restore_file: the version restored (`vN`); null otherwise. */
  version: NullableString(),
  /** restore_file: the file restored; keep_copy / discard_copy: the conflict file. */
  path: NullableString(),
  /** keep_copy: the file the copy replaced; null otherwise. */
  original: NullableString(),
});
export type VersionOrigin = Static<typeof VersionOriginSchema>;

export const RestoreVersionBodySchema = Type.Object({ version: VersionNameSchema });
export type RestoreVersionBody = Static<typeof RestoreVersionBodySchema>;

export const RestoreFileBodySchema = Type.Object({
  version: VersionNameSchema,
  path: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type RestoreFileBody = Static<typeof RestoreFileBodySchema>;

/** The version a time-travel action made (201). */
export const NewVersionSchema = Type.Object({
  /** `vN` of the new version. */
  version: Type.String(),
  origin: VersionOriginSchema,
  /** How many files it added, updated (diff updates included) and removed. */
  changes: Type.Object({
    added: Type.Integer(),
    updated: Type.Integer(),
    removed: Type.Integer(),
  }),
});
export type NewVersion = Static<typeof NewVersionSchema>;
