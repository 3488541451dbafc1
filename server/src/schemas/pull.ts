/**
 * The v2 pull (client-compat §6.2): the delta between two versions and the diffs it lists.
 * The python client reads these answers; the web app does not call them yet.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ProblemSchema, StringEnum } from './common';

/** One changed file of a delta; `diffs` lists the diff (single or merged) of an update_diff. */
export const DeltaItemSchema = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  checksum: Type.String(),
  version: Type.String(),
  change: StringEnum(['create', 'update', 'delete', 'update_diff']),
  diffs: Type.Array(Type.Object({ id: Type.String() })),
});
export type DeltaItem = Static<typeof DeltaItemSchema>;

/** Answer of `GET /v2/projects/{id}/delta`. */
export const ProjectDeltaSchema = Type.Object({
  to_version: Type.String(),
  items: Type.Array(DeltaItemSchema),
});
export type ProjectDelta = Static<typeof ProjectDeltaSchema>;

/** Query of `GET /v2/projects/{id}/delta` (checked by the service: `vN`). */
export const DeltaQuerySchema = Type.Object({
  since: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
});
export type DeltaQuery = Static<typeof DeltaQuerySchema>;

/** Query of `GET /v2/projects/{id}/raw/diff` (checked by the service). */
export const RawDiffQuerySchema = Type.Object({ file: Type.Optional(Type.String()) });

/** Params of `GET /v2/projects/{id}/raw/diff/<name>`. */
export const RawDiffPathParamsSchema = Type.Object({ id: Type.String(), '*': Type.String() });

/** A problem with the reference's `code` (DiffDownloadError). */
export const CodedProblemSchema = Type.Composite([
  ProblemSchema,
  Type.Object({ code: Type.Optional(Type.String()) }),
]);
