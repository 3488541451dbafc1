/**
 * Time travel (issue 20; contract in schemas/compare.ts, restore.ts, conflicts.ts, whose
 * comments describe each route):
 *
 * - read (anonymous on a public project): GET /app/project/compare/{namespace}/{name},
 *   …/compare/{namespace}/{name}/rows, GET /app/project/conflicts/{namespace}/{name},
 *   …/conflicts/{namespace}/{name}/edit;
 * - signed in, writers and above, each making a new version through the push core (with
 *   `Mm-push-id` for retries): POST /app/project/restore/{namespace}/{name},
 *   POST /app/project/restore-file/{namespace}/{name},
 *   POST /app/project/conflicts/{namespace}/{name}/resolve.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientMeta, currentUser, deviceIdOf } from '../plugins/auth';
import { NamespaceNameParamsSchema, problems } from '../schemas/common';
import {
  CompareQuerySchema,
  CompareRowsQuerySchema,
  CompareRowsSchema,
  ComparisonSchema,
} from '../schemas/compare';
import {
  ConflictListSchema,
  ConflictPathQuerySchema,
  EditConflictSchema,
  ResolveConflictBodySchema,
} from '../schemas/conflicts';
import {
  NewVersionSchema,
  RestoreFileBodySchema,
  RestoreVersionBodySchema,
  type NewVersion,
} from '../schemas/restore';
import type { User } from '../db/schema';
import {
  beginPushId,
  pushIdOnResponse,
  pushIdOnSend,
  replayPushId,
  type PushMeta,
} from '../services/push';
import { compareRows, compareVersions } from '../services/time-travel/compare';
import {
  listConflicts,
  readEditConflict,
  resolveConflict,
} from '../services/time-travel/conflicts';
import { restoreFile, restoreVersion } from '../services/time-travel/restore';

const readErrors = problems(400, 403, 404);
const writeErrors = problems(400, 403, 404, 409, 422, 423);

/** Compare and the conflict list: read access. */
export const timeTravelReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const ref = (request: { params: { namespace: string; name: string } }) => ({
    namespace: request.params.namespace,
    name: request.params.name,
  });

  app.get(
    '/app/project/compare/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: CompareQuerySchema,
        response: { 200: ComparisonSchema, ...readErrors },
      },
    },
    async (request) => compareVersions(ctx, request.auth.user, ref(request), request.query),
  );

  app.get(
    '/app/project/compare/:namespace/:name/rows',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: CompareRowsQuerySchema,
        response: { 200: CompareRowsSchema, ...readErrors },
      },
    },
    async (request) => compareRows(ctx, request.auth.user, ref(request), request.query),
  );

  app.get(
    '/app/project/conflicts/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        response: { 200: ConflictListSchema, ...readErrors },
      },
    },
    async (request) => listConflicts(ctx, request.auth.user, ref(request)),
  );

  app.get(
    '/app/project/conflicts/:namespace/:name/edit',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: ConflictPathQuerySchema,
        response: { 200: EditConflictSchema, ...readErrors },
      },
    },
    async (request) => readEditConflict(ctx, request.auth.user, ref(request), request.query.path),
  );
};

/**
 * Runs a time-travel action with the request's Mm-push-id (a retry gets the first answer)
 * and answers 201 with the new version.
 */
async function newVersion(
  request: FastifyRequest<{ Params: { namespace: string; name: string } }>,
  reply: FastifyReply,
  action: string,
  run: (user: User, meta: PushMeta) => Promise<NewVersion>,
): Promise<FastifyReply> {
  const user = currentUser(request);
  const target = `${action} ${request.params.namespace}/${request.params.name}`;
  const replay = await beginPushId(request.server.ctx, request, user.id, target);
  if (replay) return replayPushId(reply, replay);
  const made = await run(user, { ...clientMeta(request), deviceId: deviceIdOf(request) });
  return reply.code(201).send(made);
}

/** Restore and resolve: signed in, `upload` (writers and above). */
export const timeTravelWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const hooks = { onSend: pushIdOnSend, onResponse: pushIdOnResponse };
  const ref = (request: { params: { namespace: string; name: string } }) => ({
    namespace: request.params.namespace,
    name: request.params.name,
  });

  app.post(
    '/app/project/restore/:namespace/:name',
    {
      ...hooks,
      schema: {
        params: NamespaceNameParamsSchema,
        body: RestoreVersionBodySchema,
        response: { 201: NewVersionSchema, ...writeErrors },
      },
    },
    async (request, reply) =>
      newVersion(request, reply, 'restore', (user, meta) =>
        restoreVersion(ctx, user, ref(request), request.body, meta),
      ),
  );

  app.post(
    '/app/project/restore-file/:namespace/:name',
    {
      ...hooks,
      schema: {
        params: NamespaceNameParamsSchema,
        body: RestoreFileBodySchema,
        response: { 201: NewVersionSchema, ...writeErrors },
      },
    },
    async (request, reply) =>
      newVersion(request, reply, 'restore-file', (user, meta) =>
        restoreFile(ctx, user, ref(request), request.body, meta),
      ),
  );

  app.post(
    '/app/project/conflicts/:namespace/:name/resolve',
    {
      ...hooks,
      schema: {
        params: NamespaceNameParamsSchema,
        body: ResolveConflictBodySchema,
        response: { 201: NewVersionSchema, ...writeErrors },
      },
    },
    async (request, reply) =>
      newVersion(request, reply, 'resolve', (user, meta) =>
        resolveConflict(ctx, user, ref(request), request.body, meta),
      ),
  );
};
