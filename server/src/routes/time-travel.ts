/**
 * Time travel (issue 20; contract in schemas/compare.ts, restore.ts, conflicts.ts, whose
 * comments describe each route):
 *
 * - read (anonymous on a public project): GET /app/project/compare/{namespace}/{name},
 *   …/compare/{namespace}/{name}/rows, GET /app/project/conflicts/{namespace}/{name},
 *   …/conflicts/{namespace}/{name}/edit, …/conflicts/{namespace}/{name}/rows;
 * - signed in, writers and above, each making a new version through the push core (with
 *   `Mm-push-id` for retries): POST /app/project/restore/{namespace}/{name},
 *   POST /app/project/restore-file/{namespace}/{name},
 *   POST /app/project/conflicts/{namespace}/{name}/resolve.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import type { AppContext } from '../context';
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
  ConflictRowsQuerySchema,
  ConflictRowsSchema,
  EditConflictSchema,
  ResolveConflictBodySchema,
} from '../schemas/conflicts';
import {
  NewVersionSchema,
  RestoreFileBodySchema,
  RestoreVersionBodySchema,
  type NewVersion,
} from '../schemas/restore';
import type { User } from '../services/users';
import type { ProjectRef } from '../services/permissions';
import {
  beginPushId,
  pushIdOnResponse,
  pushIdOnSend,
  replayPushId,
  type PushMeta,
} from '../services/push';
import { ownerOf } from '../lib/sandbox';
import { compareRows, compareVersions } from '../services/time-travel/compare';
import {
  conflictRows,
  listConflicts,
  readEditConflict,
  resolveConflict,
} from '../services/time-travel/conflicts';
import { restoreFile, restoreVersion } from '../services/time-travel/restore';

const readErrors = problems(400, 403, 404);

const ref = (request: { params: { namespace: string; name: string } }): ProjectRef => ({
  namespace: request.params.namespace,
  name: request.params.name,
});

/** Compare and the conflict list: read access. */
export const timeTravelReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

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
    async (request) =>
      compareRows(
        ctx,
        request.auth.user,
        ref(request),
        request.query,
        ownerOf(request.auth.user, request.ip),
      ),
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
    '/app/project/conflicts/:namespace/:name/rows',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: ConflictRowsQuerySchema,
        response: { 200: ConflictRowsSchema, ...readErrors },
      },
    },
    async (request) => conflictRows(ctx, request.auth.user, ref(request), request.query),
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

type App = Parameters<FastifyPluginAsyncTypebox>[0];
type Action<B extends TSchema> = (
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  body: Static<B>,
  meta: PushMeta,
) => Promise<NewVersion>;

/**
 * A POST route making a new version: the body validated by `body`, the request's
 * Mm-push-id honoured (a retry gets the first answer), 201 with the version.
 */
function versionRoute<B extends TSchema>(app: App, url: string, body: B, action: Action<B>) {
  app.post(
    url,
    {
      onSend: pushIdOnSend,
      onResponse: pushIdOnResponse,
      schema: {
        params: NamespaceNameParamsSchema,
        body,
        response: { 201: NewVersionSchema, ...problems(400, 403, 404, 409, 422, 423) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const replay = await beginPushId(app.ctx, request, user.id, `${url} ${request.url}`);
      if (replay) return replayPushId(reply, replay);
      const meta = { ...clientMeta(request), deviceId: deviceIdOf(request) };
      const made = await action(app.ctx, user, ref(request), request.body as Static<B>, meta);
      return reply.code(201).send(made);
    },
  );
}

/** Restore and resolve: signed in, `upload` (writers and above). */
export const timeTravelWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  versionRoute(
    app,
    '/app/project/restore/:namespace/:name',
    RestoreVersionBodySchema,
    restoreVersion,
  );
  versionRoute(
    app,
    '/app/project/restore-file/:namespace/:name',
    RestoreFileBodySchema,
    restoreFile,
  );
  versionRoute(
    app,
    '/app/project/conflicts/:namespace/:name/resolve',
    ResolveConflictBodySchema,
    resolveConflict,
  );
};
