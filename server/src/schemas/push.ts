/**
 * The push protocol's wire shapes (api-reference A.8, §1 and §7): one declaration that the
 * server validates with and the web app's upload pipeline types itself with
 * (`import type … from '@contract/push'`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ProjectDetailSchema } from './projects';
import { CHUNK_OFFSET_HEADER, PUSH_BODY_LIMIT, PUSH_ID_HEADER } from './protocol';

/** A file entry of a push (v1 and v2 payloads). */
export const PushFileSchema = Type.Object({
  path: Type.String(),
  size: Type.Integer({ minimum: 0 }),
  checksum: Type.String(),
  mtime: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  chunks: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }))),
  diff: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
});
export type PushFile = Static<typeof PushFileSchema>;

export const PushFileListSchema = Type.Array(PushFileSchema);

/** What a push changes against its base version. */
export const PushChangesSchema = Type.Object({
  added: PushFileListSchema,
  updated: PushFileListSchema,
  removed: PushFileListSchema,
});
export type PushChanges = Static<typeof PushChangesSchema>;

/** Body of `POST /v1/project/push/{namespace}/{name}`. */
export const PushStartBodySchema = Type.Object({
  version: Type.Optional(Type.String()),
  changes: PushChangesSchema,
});
export type PushStartBody = Static<typeof PushStartBodySchema>;

/** Path of the v1 calls on an open transaction. */
export const TransactionParamsSchema = Type.Object({ transaction: Type.String() });
export type TransactionParams = Static<typeof TransactionParamsSchema>;

/** Path of `POST /v1/project/push/chunk/{transaction}/{chunk}`. */
export const ChunkParamsSchema = Type.Object({ transaction: Type.String(), chunk: Type.String() });
export type ChunkParams = Static<typeof ChunkParamsSchema>;

/** The answer that opens a transaction. */
export const TransactionSchema = Type.Object({ transaction: Type.String() });
export type TransactionAnswer = Static<typeof TransactionSchema>;

/**
 * Answer of `POST /v1/project/push/{namespace}/{name}`: a transaction, or the project when the
 * push changes nothing that needs uploading (removals only) and made the version at once.
 */
export const PushStartAnswerSchema = Type.Union([TransactionSchema, ProjectDetailSchema]);
export type PushStartAnswer = Static<typeof PushStartAnswerSchema>;

export { CHUNK_OFFSET_HEADER, PUSH_BODY_LIMIT, PUSH_ID_HEADER };

/**
 * Headers of the finish calls (`Mm-push-id`: a UUID, optional), for clients; the server reads
 * and checks the header itself (services/push/push-id.ts: anything but a UUID is 400).
 */
export const PushIdHeadersSchema = Type.Object({
  [PUSH_ID_HEADER]: Type.Optional(Type.String()),
});

/**
 * Headers of `POST /v1/project/push/chunk/{transaction}/{chunk}`: CHUNK_OFFSET_HEADER, the
 * offset within the chunk the body starts at (a positive integer below the chunk size),
 * continuing a prefix the server holds.
 */
export const ChunkHeadersSchema = Type.Object({
  [CHUNK_OFFSET_HEADER]: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,7}$' })),
});
export type ChunkHeaders = Static<typeof ChunkHeadersSchema>;

/** Answer of `POST /v1/project/push/chunk/{transaction}/{chunk}`. */
export const ChunkAnswerSchema = Type.Object({
  checksum: Type.String(),
  size: Type.Integer(),
});
export type ChunkAnswer = Static<typeof ChunkAnswerSchema>;

/** Answer of `GET /v1/project/push/{transaction}`: what the server holds, to resume. */
export const UploadStatusSchema = Type.Object({
  transaction: Type.String(),
  project: Type.String(),
  version: Type.String(),
  chunks_received: Type.Array(Type.String()),
  /** Every received chunk id → how many times the server wrote it (1 unless sent again). */
  chunk_writes: Type.Record(Type.String(), Type.Integer()),
  files: Type.Array(
    Type.Object({
      path: Type.String(),
      size: Type.Integer(),
      chunks: Type.Array(Type.String()),
      received: Type.Integer(),
    }),
  ),
  expires: Type.String(),
  /**
   * Chunks partly received on a connection that broke off: chunk id → bytes the server holds
   * (a Waymark addition: send the rest with CHUNK_OFFSET_HEADER). Empty when none.
   */
  chunk_prefixes: Type.Record(Type.String(), Type.Integer()),
});
export type UploadStatusAnswer = Static<typeof UploadStatusSchema>;

/**
 * Extra fields of a refused finish (422 UploadError): the files that must be sent again
 * (their chunks are forgotten; the transaction stays open), and for missing chunks their ids.
 */
export const FinishRefusalSchema = Type.Object({
  type: Type.Literal('about:blank'),
  status: Type.Literal(422),
  title: Type.String(),
  code: Type.Literal('UploadError'),
  detail: Type.String(),
  files: Type.Array(Type.String()),
  missing_chunks: Type.Optional(Type.Array(Type.String())),
});
export type FinishRefusal = Static<typeof FinishRefusalSchema>;

/** Body of `POST /v2/projects/{id}/versions`. */
export const PushV2BodySchema = Type.Object({
  version: Type.String({ pattern: '^v\\d+$' }),
  check_only: Type.Optional(Type.Boolean()),
  changes: PushChangesSchema,
});
export type PushV2Body = Static<typeof PushV2BodySchema>;

/** Answer of `POST /v2/projects/{id}/chunks`. */
export const V2ChunkAnswerSchema = Type.Object({
  id: Type.String(),
  valid_until: Type.String(),
});
export type V2ChunkAnswer = Static<typeof V2ChunkAnswerSchema>;

/** The v2 project object (api-reference A.10): the answer of a v2 version call (201). */
export { ProjectV2Schema, type ProjectV2 } from './projects';
