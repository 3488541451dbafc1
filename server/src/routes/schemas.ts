/** JSON schema fragments shared by route declarations. */

/** Problem body (api-reference §0.2). */
export const problemSchema = {
  type: 'object',
  properties: {
    detail: {},
    status: { type: 'integer' },
    title: { type: 'string' },
    type: { type: 'string' },
  },
} as const;

/** The reference's 401 body: a JSON string. */
export const authErrorSchema = { type: 'string' } as const;

/** Field → messages. */
export const formErrorSchema = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
} as const;

export const emptySchema = { type: 'null' } as const;

/** Path parameters of routes addressed by an id (`/…/:id`). */
export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
} as const;

export const stringList = { type: 'array', items: { type: 'string' } } as const;

/** Key → count (e.g. chunk id → how many times the server wrote it). */
export const countMap = { type: 'object', additionalProperties: { type: 'integer' } } as const;

export const workspaceRoleSchema = {
  type: 'string',
  enum: ['guest', 'reader', 'writer', 'admin', 'owner'],
} as const;

/** A 400/404 that is either form errors or a problem. */
export const formOrProblemSchema = { anyOf: [formErrorSchema, problemSchema] } as const;

/** `page` (≥ 1) and `per_page` (≤ 100), both required (api-reference §6). */
export const pageQueryProperties = {
  page: { type: 'integer', minimum: 1 },
  per_page: { type: 'integer', maximum: 100 },
} as const;

/** A push's file list (v1 and v2 payloads), declared in the contract. */
export { PushFileListSchema as pushFileList } from '../schemas/push';
