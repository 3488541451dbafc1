/**
 * A project's history (api-reference A.6): the versions list, a version's detail, a file's
 * history and the state of a file's row-level changeset.
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  NamespaceNameParamsSchema,
  NullableString,
  StringEnum,
  StringMap,
  VersionNameSchema,
} from './common';
import { TableChangeCountsSchema } from './changesets';
import { FileChangeKindSchema } from './projects';
import { VersionOriginSchema } from './restore';

/** The row-level changes computed for one versioned file of a version. */
export const ChangesetStateSchema = Type.Object({
  status: StringEnum(['pending', 'done', 'error']),
  size: Type.Integer(),
  summary: Type.Optional(Type.Array(TableChangeCountsSchema)),
  error: Type.Optional(Type.String()),
});
export type ChangesetState = Static<typeof ChangesetStateSchema>;

const versionCommon = {
  id: Type.String(),
  name: Type.String(),
  author: Type.Optional(Type.String()),
  created: Type.String(),
  project_name: Type.String(),
  namespace: Type.String(),
  project_size: Type.Integer(),
  user_agent: NullableString(),
  changesets: StringMap(ChangesetStateSchema),
  /** Versions made by time travel (restore, conflict resolution): what they did (restore.ts). */
  origin: Type.Optional(VersionOriginSchema),
};

export const HistoryDiffSchema = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  checksum: Type.String(),
});
export type HistoryDiff = Static<typeof HistoryDiffSchema>;

/** One file's change in a version. */
export const FileChangeSchema = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  checksum: NullableString(),
  mtime: NullableString(),
  change: FileChangeKindSchema,
  expiration: Type.Null(),
  diff: Type.Optional(HistoryDiffSchema),
});
export type FileChange = Static<typeof FileChangeSchema>;

/** How many files a version added, updated (as a whole or by a diff) and removed. */
export const VersionChangeCountsSchema = Type.Object({
  added: Type.Integer(),
  updated: Type.Integer(),
  updated_diff: Type.Integer(),
  removed: Type.Integer(),
});
export type VersionChangeCounts = Static<typeof VersionChangeCountsSchema>;

export const VersionListItemSchema = Type.Object({
  ...versionCommon,
  changes: VersionChangeCountsSchema,
});
export type VersionListItem = Static<typeof VersionListItemSchema>;

/** GET /v1/project/versions/paginated/{namespace}/{name}. */
export const VersionListSchema = Type.Object({
  count: Type.Integer(),
  versions: Type.Array(VersionListItemSchema),
});
export type VersionList = Static<typeof VersionListSchema>;

export const VersionListQuerySchema = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  descending: Type.Optional(Type.Boolean()),
});
export type VersionListQuery = Static<typeof VersionListQuerySchema>;

const fileChangeList = Type.Array(FileChangeSchema);

/** GET /v1/project/version/…/{version}. */
export const VersionDetailSchema = Type.Object({
  ...versionCommon,
  changes: Type.Object({ added: fileChangeList, updated: fileChangeList, removed: fileChangeList }),
});
export type VersionDetail = Static<typeof VersionDetailSchema>;

/** GET /v1/resource/history/{namespace}/{name}?path=. */
export const FileHistorySchema = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  checksum: NullableString(),
  mtime: NullableString(),
  diff: Type.Optional(HistoryDiffSchema),
  history: StringMap(FileChangeSchema),
});
export type FileHistory = Static<typeof FileHistorySchema>;

/** The 202 of GET /v1/resource/changesets/…: the changes are still being computed. */
export const ChangesetPendingSchema = Type.Object({
  status: Type.String(),
  detail: Type.String(),
});
export type ChangesetPending = Static<typeof ChangesetPendingSchema>;

export const PathQuerySchema = Type.Object({ path: Type.String() });
export type PathQuery = Static<typeof PathQuerySchema>;

export const VersionIdParamsSchema = Type.Object({ id: Type.String(), version: VersionNameSchema });
export type VersionIdParams = Static<typeof VersionIdParamsSchema>;

export const VersionNameParamsSchema = Type.Object({
  ...NamespaceNameParamsSchema.properties,
  version: VersionNameSchema,
});
export type VersionNameParams = Static<typeof VersionNameParamsSchema>;
