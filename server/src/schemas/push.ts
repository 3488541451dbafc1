/**
 * The push protocol's wire shapes (api-reference A.8, §1 and §7): one declaration that the
 * server validates with and the web app's upload pipeline types itself with
 * (`import type … from '@contract/push'`).
 */
import { Type, type Static } from '@sinclair/typebox';

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

/** The answer that opens a transaction. */
export const TransactionSchema = Type.Object({ transaction: Type.String() });
export type TransactionAnswer = Static<typeof TransactionSchema>;
