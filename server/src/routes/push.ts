/**
 * The v1 push protocol (api-reference A.8, §1): start, chunk, finish, cancel, and the
 * resume status call GET /v1/project/push/{transaction} (an addition,
 * docs/decisions/0034-upload-status-call.md). Logic in services/push/ (v1.ts on the push
 * core). Push start takes bodies up to PUSH_BODY_LIMIT; finish is retry-safe with
 * `Mm-push-id` (services/push/push-id.ts). A chunk request may continue a prefix the server
 * holds (CHUNK_OFFSET_HEADER, services/push/chunk-prefixes.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { clientMeta, currentUser, deviceIdOf } from '../plugins/auth';
import {
  beginPushId,
  cancelPush,
  finishPush,
  pushIdOnResponse,
  pushIdOnSend,
  replayPushId,
  startPush,
  uploadChunk,
  uploadStatus,
  type PushInput,
} from '../services/push';
import { projectDetailSchema } from './projects';
import { EmptySchema as emptySchema, ProblemSchema as problemSchema } from '../schemas/common';
import {
  CHUNK_OFFSET_HEADER,
  ChunkAnswerSchema,
  ChunkHeadersSchema,
  PUSH_BODY_LIMIT,
  PushStartBodySchema,
  TransactionSchema,
  UploadStatusSchema,
  type ChunkHeaders,
} from '../schemas/push';
import { acceptRawBodies, rawBody } from './raw-body';

const transactionParams = {
  type: 'object',
  required: ['transaction'],
  properties: { transaction: { type: 'string' } },
} as const;

const errorResponses = {
  400: problemSchema,
  403: problemSchema,
  404: problemSchema,
  422: problemSchema,
} as const;

/**
 * Routes with raw bodies: any content type is accepted unparsed. The chunk body is streamed
 * by the service (never buffered); finish and cancel ignore theirs.
 */
const rawBodyRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  acceptRawBodies(app);

  app.post<{ Params: { transaction: string; chunk: string }; Headers: ChunkHeaders }>(
    '/v1/project/push/chunk/:transaction/:chunk',
    {
      schema: {
        params: {
          type: 'object',
          required: ['transaction', 'chunk'],
          properties: { transaction: { type: 'string' }, chunk: { type: 'string' } },
        },
        headers: ChunkHeadersSchema,
        response: { 200: ChunkAnswerSchema, ...errorResponses, 409: problemSchema },
      },
    },
    async (request) => {
      const body = rawBody(request);
      const offset = request.headers[CHUNK_OFFSET_HEADER];
      return uploadChunk(
        ctx,
        request.auth.user,
        request.params.transaction,
        request.params.chunk,
        body,
        offset === undefined ? 0 : Number(offset),
      );
    },
  );

  app.post<{ Params: { transaction: string } }>(
    '/v1/project/push/finish/:transaction',
    {
      onSend: pushIdOnSend,
      onResponse: pushIdOnResponse,
      schema: {
        params: transactionParams,
        response: { 200: projectDetailSchema, ...errorResponses },
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

  app.post<{ Params: { transaction: string } }>(
    '/v1/project/push/cancel/:transaction',
    {
      schema: {
        params: transactionParams,
        response: { 200: emptySchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await cancelPush(ctx, request.auth.user, request.params.transaction);
      return reply.code(200).send();
    },
  );
};

const pushRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.post<{ Params: { namespace: string; name: string }; Body: PushInput }>(
    '/v1/project/push/:namespace/:name',
    {
      bodyLimit: PUSH_BODY_LIMIT,
      schema: {
        params: {
          type: 'object',
          required: ['namespace', 'name'],
          properties: { namespace: { type: 'string' }, name: { type: 'string' } },
        },
        body: PushStartBodySchema,
        response: {
          200: { anyOf: [TransactionSchema, projectDetailSchema] },
          ...errorResponses,
          415: problemSchema,
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

  app.get<{ Params: { transaction: string } }>(
    '/v1/project/push/:transaction',
    {
      schema: {
        params: transactionParams,
        response: { 200: UploadStatusSchema, ...errorResponses },
      },
    },
    async (request) => uploadStatus(ctx, request.auth.user, request.params.transaction),
  );
};

export default pushRoutes;
