/**
 * The v1 push protocol (api-reference A.8, §1): start, chunk, finish, cancel, and the
 * resume status call GET /v1/project/push/{transaction} (an addition,
 * docs/decisions/0034-upload-status-call.md). Logic in services/push/ (v1.ts on the push
 * core). Push start takes bodies up to PUSH_BODY_LIMIT; finish is retry-safe with
 * `Mm-push-id` (services/push/push-id.ts). A chunk request may continue a prefix the server
 * holds (CHUNK_OFFSET_HEADER, services/push/chunk-prefixes.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientMeta, currentUser, deviceIdOf, withCallerWindow } from '../plugins/auth';
import {
  beginPushId,
  cancelPush,
  chunkTarget,
  finishPush,
  pushIdOnResponse,
  pushIdOnSend,
  replayPushId,
  startPush,
  uploadChunk,
  uploadStatus,
} from '../services/push';
import { EmptySchema, NamespaceNameParamsSchema, ProblemSchema, problems } from '../schemas/common';
import { ProjectDetailSchema } from '../schemas/projects';
import {
  CHUNK_OFFSET_HEADER,
  ChunkAnswerSchema,
  ChunkHeadersSchema,
  ChunkParamsSchema,
  PUSH_BODY_LIMIT,
  PushStartAnswerSchema,
  PushStartBodySchema,
  TransactionParamsSchema,
  UploadStatusSchema,
} from '../schemas/push';
import { acceptRawBodies, rawBody } from './raw-body';

const errorResponses = problems(400, 403, 404, 422);

/** The access window's key prefix of chunk requests (plugins/auth.ts withCallerWindow). */
const CHUNK_WINDOW_KEY = 'push-chunk';

/**
 * Routes with raw bodies: any content type is accepted unparsed. The chunk body is streamed
 * by the service (never buffered); finish and cancel ignore theirs.
 */
const rawBodyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  acceptRawBodies(app);

  app.post(
    '/v1/project/push/chunk/:transaction/:chunk',
    {
      // The caller is resolved in the handler (withCallerWindow).
      config: { deferAuth: true },
      schema: {
        params: ChunkParamsSchema,
        headers: ChunkHeadersSchema,
        response: { 200: ChunkAnswerSchema, ...errorResponses, 409: ProblemSchema },
      },
    },
    async (request) => {
      const body = rawBody(request);
      const offset = request.headers[CHUNK_OFFSET_HEADER];
      const { transaction } = request.params;
      // The chunks of one upload, sent one after another by the same caller, reuse the
      // caller, the upload and the access resolved in the last seconds (CHUNK_WINDOW_KEY).
      const target = await withCallerWindow(request, `${CHUNK_WINDOW_KEY}:${transaction}`, (user) =>
        chunkTarget(ctx, user, transaction),
      );
      return uploadChunk(
        ctx,
        target.value,
        request.params.chunk,
        body,
        offset === undefined ? 0 : Number(offset),
      );
    },
  );

  app.post(
    '/v1/project/push/finish/:transaction',
    {
      onSend: pushIdOnSend,
      onResponse: pushIdOnResponse,
      schema: {
        params: TransactionParamsSchema,
        response: { 200: ProjectDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { transaction } = request.params;
      const user = currentUser(request);
      const replay = await beginPushId(ctx, request, user.id, `v1 finish ${transaction}`);
      if (replay) return replayPushId(reply, replay);
      return finishPush(ctx, user, transaction, {
        ...clientMeta(request),
        deviceId: deviceIdOf(request),
      });
    },
  );

  app.post(
    '/v1/project/push/cancel/:transaction',
    {
      schema: {
        params: TransactionParamsSchema,
        response: { 200: EmptySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await cancelPush(ctx, request.auth.user, request.params.transaction);
      return reply.code(200).send();
    },
  );
};

const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/v1/project/push/:namespace/:name',
    {
      bodyLimit: PUSH_BODY_LIMIT,
      schema: {
        params: NamespaceNameParamsSchema,
        body: PushStartBodySchema,
        response: {
          200: PushStartAnswerSchema,
          ...errorResponses,
          415: ProblemSchema,
        },
      },
    },
    async (request) =>
      startPush(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.body,
        { ...clientMeta(request), deviceId: deviceIdOf(request) },
      ),
  );

  app.register(rawBodyRoutes);

  app.get(
    '/v1/project/push/:transaction',
    {
      schema: {
        params: TransactionParamsSchema,
        response: { 200: UploadStatusSchema, ...errorResponses },
      },
    },
    async (request) => uploadStatus(ctx, request.auth.user, request.params.transaction),
  );
};

export default pushRoutes;
