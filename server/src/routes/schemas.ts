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

export const stringList = { type: 'array', items: { type: 'string' } } as const;

export const workspaceRoleSchema = {
  type: 'string',
  enum: ['guest', 'reader', 'writer', 'admin', 'owner'],
} as const;
