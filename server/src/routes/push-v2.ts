/**
 * The v2 push (client-compat §5.2, api-reference §1.9): raw chunks, then one call that
 * checks (check_only) or makes the version. Logic in services/push/ (v2.ts on the push
 * core). The versions call takes bodies up to PUSH_BODY_LIMIT and is retry-safe with
 * `Mm-push-id` (never for check_only).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientMeta, currentUser, deviceIdOf, withCallerWindow } from '../plugins/auth';
import {
  beginPushId,
  chunkProjectV2,
  pushIdOnResponse,
  pushIdOnSend,
  pushVersionV2,
  replayPushId,
  uploadChunkV2,
} from '../services/push';
import {
  PUSH_BODY_LIMIT,
  ProjectV2Schema,
  PushV2BodySchema,
  V2ChunkAnswerSchema,
} from '../schemas/push';
import { EmptySchema, IdParamsSchema, ProblemSchema, problems } from '../schemas/common';
import { acceptRawBodies, rawBody } from './raw-body';

const errors = problems(400, 403, 404, 409, 413, 422, 423);

/** The access window's key prefix of v2 chunk requests (plugins/auth.ts withCallerWindow). */
const CHUNK_WINDOW_KEY = 'push-v2-chunk';

/** The chunk route takes any body unparsed and streams it. */
const chunkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptRawBodies(app);

  app.post(
    '/v2/projects/:id/chunks',
    {
      // The caller is resolved in the handler (withCallerWindow).
      config: { deferAuth: true },
      schema: {
        params: IdParamsSchema,
        response: { 200: V2ChunkAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const body = rawBody(request);
      const { id } = request.params;
      // A client's chunks, sent one after another to the same project, reuse the caller and
      // the project access resolved in the last seconds (as v1's chunk route).
      const target = await withCallerWindow(request, `${CHUNK_WINDOW_KEY}:${id}`, (user) =>
        chunkProjectV2(app.ctx, user, id),
      );
      return uploadChunkV2(app.ctx, target.value, body);
    },
  );
};

const pushV2Routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v2/projects/:id/versions',
    {
      bodyLimit: PUSH_BODY_LIMIT,
      onSend: pushIdOnSend,
      onResponse: pushIdOnResponse,
      schema: {
        params: IdParamsSchema,
        body: PushV2BodySchema,
        response: { 201: ProjectV2Schema, 204: EmptySchema, ...errors, 415: ProblemSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!request.body.check_only) {
        const target = `v2 versions ${request.params.id}`;
        const replay = await beginPushId(app.ctx, request, user.id, target);
        if (replay) return replayPushId(reply, replay);
      }
      const project = await pushVersionV2(app.ctx, user, request.params.id, request.body, {
        ...clientMeta(request),
        deviceId: deviceIdOf(request),
      });
      if (!project) return reply.code(204).send();
      return reply.code(201).send(project);
    },
  );

  app.register(chunkRoutes);
};

export default pushV2Routes;
