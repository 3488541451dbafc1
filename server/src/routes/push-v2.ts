/**
 * The v2 push (client-compat §5.2, api-reference §1.9): raw chunks, then one call that
 * checks (check_only) or makes the version. Logic in services/push-v2.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { clientMeta, deviceIdOf, requireLogin } from '../plugins/auth';
import { pushVersionV2, uploadChunkV2, type PushV2Input } from '../services/push-v2';
import { authErrorSchema, emptySchema, idParams, problemSchema, pushFileList } from './schemas';
import { acceptRawBodies, rawBody } from './raw-body';

const versionsBody = {
  type: 'object',
  required: ['version', 'changes'],
  properties: {
    version: { type: 'string', pattern: '^v\\d+$' },
    check_only: { type: 'boolean' },
    changes: {
      type: 'object',
      required: ['added', 'updated', 'removed'],
      properties: { added: pushFileList, updated: pushFileList, removed: pushFileList },
    },
  },
} as const;

/** The v2 project object (api-reference A.10), `files` included when asked for. */
export const projectV2Schema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    workspace: {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    },
    role: { type: ['string', 'null'] },
    version: { type: 'string' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    public: { type: 'boolean' },
    size: { type: 'integer' },
    files: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          mtime: { type: ['string', 'null'] },
          size: { type: 'integer' },
          checksum: { type: 'string' },
        },
      },
    },
  },
} as const;

const errors = {
  400: problemSchema,
  401: authErrorSchema,
  403: problemSchema,
  404: problemSchema,
  409: problemSchema,
  413: problemSchema,
  422: problemSchema,
  423: problemSchema,
} as const;

/** The chunk route takes any body unparsed and streams it. */
const chunkRoutes: FastifyPluginAsync = async (app) => {
  acceptRawBodies(app);

  app.post<{ Params: { id: string } }>(
    '/v2/projects/:id/chunks',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        response: {
          200: {
            type: 'object',
            required: ['id', 'valid_until'],
            properties: { id: { type: 'string' }, valid_until: { type: 'string' } },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      const body = rawBody(request);
      return uploadChunkV2(app.ctx, request.auth.user, request.params.id, body);
    },
  );
};

const pushV2Routes: FastifyPluginAsync = async (app) => {
  app.post<{ Params: { id: string }; Body: PushV2Input }>(
    '/v2/projects/:id/versions',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        body: versionsBody,
        response: { 201: projectV2Schema, 204: emptySchema, ...errors, 415: problemSchema },
      },
    },
    async (request, reply) => {
      const project = await pushVersionV2(
        app.ctx,
        request.auth.user,
        request.params.id,
        request.body,
        { ...clientMeta(request), deviceId: deviceIdOf(request) },
      );
      if (!project) return reply.code(204).send();
      return reply.code(201).send(project);
    },
  );

  app.register(chunkRoutes);
};

export default pushV2Routes;
