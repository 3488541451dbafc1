/** Workspaces (api-reference A.4). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../errors';
import { shadowingWords } from '../lib/route-words';
import { currentUser } from '../plugins/auth';
import { createUserWorkspace, getUserWorkspace, listUserWorkspaces } from '../services/workspaces';
import { IdParamsSchema, problems } from '../schemas/common';
import { CreateWorkspaceSchema, WorkspaceListSchema, WorkspaceSchema } from '../schemas/workspaces';

/** Registered in a signed-in scope (app.ts). */
const workspaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** Words of the route table a workspace name would be shadowed by (read once served). */
  let routeWords: Set<string> | null = null;
  const wordsOfRoutes = () =>
    (routeWords ??= shadowingWords(app.routeIndex.list().map((route) => route.url)));

  app.get(
    '/v1/workspaces',
    { schema: { response: { 200: WorkspaceListSchema } } },
    async (request) => listUserWorkspaces(app.ctx, currentUser(request)),
  );

  app.post(
    '/v1/workspace',
    {
      schema: {
        body: CreateWorkspaceSchema,
        response: { 201: WorkspaceSchema, ...problems(400, 403, 409, 415) },
      },
    },
    async (request, reply) => {
      const workspace = await createUserWorkspace(
        app.ctx,
        currentUser(request),
        request.body,
        wordsOfRoutes(),
      );
      return reply.code(201).send(workspace);
    },
  );

  app.get(
    '/v1/workspace/:id',
    {
      schema: {
        params: IdParamsSchema,
        response: { 200: WorkspaceSchema, ...problems(403, 404) },
      },
    },
    async (request) => {
      // Non-integer ids are "no such route" in the reference: generic 404.
      const { id } = request.params;
      if (!/^\d{1,9}$/.test(id)) throw notFound();
      return getUserWorkspace(app.ctx, currentUser(request), Number(id));
    },
  );
};

export default workspaceRoutes;
