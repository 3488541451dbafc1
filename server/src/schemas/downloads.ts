/** Downloads (api-reference A.9): one file (with ranges) and the project as a ZIP. */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, VersionParamSchema } from './common';

/** Query of GET /v1/project/raw/{namespace}/{name}. */
export const RawQuerySchema = Type.Object({
  file: Type.String(),
  version: Type.Optional(VersionParamSchema),
  diff: Type.Optional(Type.Boolean()),
  /** The web client's cache buster, ignored. */
  random: Type.Optional(Type.Unknown()),
});
export type RawQuery = Static<typeof RawQuerySchema>;

/** Query of GET /v1/project/download/{namespace}/{name}. */
export const ArchiveQuerySchema = Type.Object({
  format: Type.Optional(StringEnum(['zip'])),
  version: Type.Optional(VersionParamSchema),
});
export type ArchiveQuery = Static<typeof ArchiveQuerySchema>;

/**
 * A file's bytes: the answer of the raw download (200, 206 for a range, with the sniffed
 * Content-Type) and of the project download (200, application/zip). Sent as a stream, which
 * Fastify never serialises: the schema records the answer in the contract, nothing more.
 */
export const FileBytesSchema = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });
