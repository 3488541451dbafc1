/**
 * A project's history (api-reference A.6; shapes in docs/decisions/0039-history-api.md):
 * versions list, version detail (by project id or by namespace and name), a file's history
 * and a file's row-level changeset in a version. Version downloads are in routes/downloads.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { sendJson } from '../plugins/errors';
import {
  CHANGES_PENDING,
  getChangeset,
  getFileHistory,
  getVersion,
  listVersions,
} from '../services/history';
import { ChangesetSchema } from '../schemas/changesets';
import { NamespaceNameParamsSchema, ProblemSchema, problems } from '../schemas/common';
import {
  ChangesetPendingSchema,
  FileHistorySchema,
  PathQuerySchema,
  VersionDetailSchema,
  VersionIdParamsSchema,
  VersionListQuerySchema,
  VersionListSchema,
  VersionNameParamsSchema,
} from '../schemas/history';

const errors = problems(400, 403, 404);

const historyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v1/project/versions/paginated/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: VersionListQuerySchema,
        response: {
          200: VersionListSchema,
          ...errors,
        },
      },
    },
    async (request) =>
      listVersions(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        {
          page: request.query.page,
          perPage: request.query.per_page,
          descending: request.query.descending,
        },
      ),
  );

  app.get(
    '/v1/project/version/:id/:version',
    {
      schema: {
        params: VersionIdParamsSchema,
        response: { 200: VersionDetailSchema, ...errors },
      },
    },
    async (request) =>
      getVersion(ctx, request.auth.user, { id: request.params.id }, request.params.version),
  );

  app.get(
    '/v1/project/version/:namespace/:name/:version',
    {
      schema: {
        params: VersionNameParamsSchema,
        response: { 200: VersionDetailSchema, ...errors },
      },
    },
    async (request) =>
      getVersion(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.params.version,
      ),
  );

  app.get(
    '/v1/resource/history/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: PathQuerySchema,
        response: { 200: FileHistorySchema, ...errors },
      },
    },
    async (request) =>
      getFileHistory(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.query.path,
      ),
  );

  app.get(
    '/v1/resource/changesets/:namespace/:name/:version',
    {
      schema: {
        params: VersionNameParamsSchema,
        querystring: PathQuerySchema,
        response: {
          200: ChangesetSchema,
          202: ChangesetPendingSchema,
          ...errors,
          422: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      const answer = await getChangeset(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.params.version,
        request.query.path,
      );
      if (answer.status === 'pending') {
        return sendJson(reply, 202, 'application/json', {
          status: 'pending',
          detail: CHANGES_PENDING,
        });
      }
      // Stored as JSON text already (made by lib/sqlite-diff.ts or geodiff/entries.ts, typed by
      // ChangesetSchema): sent as it is, since Fastify does not serialise a JSON string.
      const stored: FastifyReply = reply;
      return stored.code(200).header('content-type', 'application/json').send(answer.json);
    },
  );
};

export default historyRoutes;
