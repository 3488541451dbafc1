/**
 * Projects (api-reference A.5, A.10, §6.1): list items, the project detail in its three
 * modes, the v2 project object, and the bodies of create, settings, clone, rename.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MAX_LAST_UPDATED_DAYS } from './limits';
import {
  IntegerListSchema,
  NullableInteger,
  NullableObject,
  NullableString,
  NullableStringEnum,
  pageQueryProperties,
  StringEnum,
  StringListSchema,
  StringMap,
  VersionParamSchema,
} from './common';

/** What the caller may do with a project. */
export const ProjectPermissionsSchema = Type.Object({
  upload: Type.Boolean(),
  update: Type.Boolean(),
  delete: Type.Boolean(),
});
export type ProjectPermissions = Static<typeof ProjectPermissionsSchema>;

/** Members as the reference's cumulative lists (an owner is also a writer and a reader). */
export const ProjectAccessSchema = Type.Object({
  owners: IntegerListSchema,
  ownersnames: StringListSchema,
  writers: IntegerListSchema,
  writersnames: StringListSchema,
  editors: IntegerListSchema,
  editorsnames: StringListSchema,
  readers: IntegerListSchema,
  readersnames: StringListSchema,
  public: Type.Boolean(),
});
export type ProjectAccess = Static<typeof ProjectAccessSchema>;

/** The keys every project view shares: list items, by_names and the project detail. */
const summaryProperties = {
  id: Type.String(),
  name: Type.String(),
  namespace: Type.String(),
  version: Type.String(),
  created: Type.String(),
  updated: Type.String(),
  creator: NullableInteger(),
  disk_usage: Type.Integer(),
  tags: StringListSchema,
  permissions: ProjectPermissionsSchema,
};
export const ProjectSummarySchema = Type.Object(summaryProperties);
export type ProjectSummary = Static<typeof ProjectSummarySchema>;

/** One project of GET /v1/project/paginated and POST /v1/project/by_names. */
export const ProjectListItemSchema = Type.Object({
  ...summaryProperties,
  has_conflict: Type.Boolean(),
  access: ProjectAccessSchema,
});
export type ProjectListItem = Static<typeof ProjectListItemSchema>;

/** GET /v1/project/paginated. */
export const ProjectListSchema = Type.Object({
  projects: Type.Array(ProjectListItemSchema),
  count: Type.Integer(),
});
export type ProjectList = Static<typeof ProjectListSchema>;

/** Query of GET /v1/project/paginated. */
export const ProjectListQuerySchema = Type.Object({
  ...pageQueryProperties,
  order_params: Type.Optional(Type.String()),
  order_by: Type.Optional(Type.String()),
  descending: Type.Optional(Type.Boolean()),
  namespace: Type.Optional(Type.String()),
  only_namespace: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  user: Type.Optional(Type.String()),
  last_updated_in: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_LAST_UPDATED_DAYS })),
  flag: Type.Optional(StringEnum(['created', 'shared'])),
  as_admin: Type.Optional(Type.Boolean()),
  public: Type.Optional(Type.Boolean()),
  only_public: Type.Optional(Type.Boolean()),
});
export type ProjectListQuery = Static<typeof ProjectListQuerySchema>;

/** Body of POST /v1/project/by_names: `namespace/name` strings. */
export const ByNamesBodySchema = Type.Object({ projects: StringListSchema });
export type ByNamesBody = Static<typeof ByNamesBodySchema>;

/** Answer of by_names: each name → the project, or the error it gave. */
export const ByNamesSchema = StringMap(
  Type.Union([Type.Object({ error: Type.Integer() }), ProjectListItemSchema]),
);
export type ByNames = Static<typeof ByNamesSchema>;

/** A diff file (the `diff` of a versioned file's latest change). */
export const FileDiffSchema = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  checksum: Type.String(),
  location: Type.Optional(Type.String()),
});
export type FileDiff = Static<typeof FileDiffSchema>;

export const FILE_CHANGES = ['added', 'updated', 'removed'] as const;
export const FileChangeKindSchema = StringEnum(FILE_CHANGES);
export type FileChangeKind = Static<typeof FileChangeKindSchema>;

/** One file of a project detail; `location` and `history` only in the `since` mode. */
export const ProjectFileSchema = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  checksum: Type.String(),
  mtime: NullableString(),
  diff: Type.Optional(NullableObject(FileDiffSchema)),
  location: Type.Optional(Type.String()),
  history: Type.Optional(
    StringMap(
      Type.Object({
        path: Type.String(),
        size: Type.Integer(),
        checksum: NullableString(),
        change: FileChangeKindSchema,
        diff: Type.Optional(NullableObject(FileDiffSchema)),
      }),
    ),
  ),
});
export type ProjectFile = Static<typeof ProjectFileSchema>;

/** The keys of a project detail that the `version=vN` mode leaves out. */
const latestOnlyProperties = {
  workspace_id: Type.Integer(),
  public: Type.Boolean(),
  removed_at: Type.Null(),
  locked_until: NullableString(),
};

const detailProperties = {
  ...summaryProperties,
  uploads: StringListSchema,
  role: NullableStringEnum(['owner', 'writer', 'reader']),
  access: ProjectAccessSchema,
  files: Type.Array(ProjectFileSchema),
};

/** The latest project (GET project, PUT settings, push finish): api-reference A.5. */
export const ProjectDetailSchema = Type.Object({ ...detailProperties, ...latestOnlyProperties });
export type ProjectDetail = Static<typeof ProjectDetailSchema>;

/**
 * The answer of GET /v1/project/{namespace}/{name} and by_uuid in every mode: the latest
 * project, or the project at `version=vN` (without the latest-only keys).
 */
export const ProjectAnswerSchema = Type.Object({
  ...detailProperties,
  workspace_id: Type.Optional(latestOnlyProperties.workspace_id),
  public: Type.Optional(latestOnlyProperties.public),
  removed_at: Type.Optional(latestOnlyProperties.removed_at),
  locked_until: Type.Optional(latestOnlyProperties.locked_until),
});
export type ProjectAnswer = Static<typeof ProjectAnswerSchema>;

/** Query of GET project: `since=vN` or `version=vN` (empty: the latest). */
export const ProjectQuerySchema = Type.Object({
  since: Type.Optional(VersionParamSchema),
  version: Type.Optional(VersionParamSchema),
});
export type ProjectQuery = Static<typeof ProjectQuerySchema>;

/** Body of POST /v1/project/{namespace}. */
export const CreateProjectBodySchema = Type.Object({
  name: Type.String(),
  public: Type.Optional(Type.Boolean()),
  template: Type.Optional(NullableString()),
});
export type CreateProjectBody = Static<typeof CreateProjectBodySchema>;

/** The `access` of PUT /v1/project/{namespace}/{name}: the keys a project answers with. */
export const AccessSettingsSchema = Type.Partial(ProjectAccessSchema);
export type AccessSettings = Static<typeof AccessSettingsSchema>;

export const AccessSettingsBodySchema = Type.Object({ access: AccessSettingsSchema });
export type AccessSettingsBody = Static<typeof AccessSettingsBodySchema>;

/** Body of POST /v1/project/clone/{namespace}/{project}: target workspace and name. */
export const CloneBodySchema = Type.Object({
  namespace: Type.Optional(NullableString()),
  project: Type.Optional(NullableString()),
});
export type CloneBody = Static<typeof CloneBodySchema>;

/** Body of PATCH /v2/projects/{id}. */
export const RenameBodySchema = Type.Object({ name: Type.String() });
export type RenameBody = Static<typeof RenameBodySchema>;

/** Body of PATCH /app/project/{id}/public. */
export const VisibilityBodySchema = Type.Object({ public: Type.Optional(Type.Boolean()) });
export type VisibilityBody = Static<typeof VisibilityBodySchema>;

/** One item of GET /app/project/templates. */
export const TemplateSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  namespace: Type.String(),
  version: Type.String(),
});
export type Template = Static<typeof TemplateSchema>;
export const TemplateListSchema = Type.Array(TemplateSchema);
export type TemplateList = Static<typeof TemplateListSchema>;

/** The v2 project object (api-reference A.10), `files` included when asked for. */
export const ProjectV2Schema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  workspace: Type.Object({ id: Type.Integer(), name: Type.String() }),
  role: NullableString(),
  version: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  public: Type.Boolean(),
  size: Type.Integer(),
  files: Type.Optional(
    Type.Array(
      Type.Object({
        path: Type.String(),
        mtime: NullableString(),
        size: Type.Integer(),
        checksum: Type.String(),
      }),
    ),
  ),
});
export type ProjectV2 = Static<typeof ProjectV2Schema>;

/** Query of GET /v2/projects/{id}. */
export const ProjectV2QuerySchema = Type.Object({
  files_at_version: Type.Optional(Type.String({ pattern: '^v\\d+$' })),
});
export type ProjectV2Query = Static<typeof ProjectV2QuerySchema>;
