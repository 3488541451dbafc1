/**
 * Project access one user at a time (GET/PATCH /app/project/{id}/access, and the
 * reference's v2 collaborators) and the share dialog's user search (GET /app/auth/user/search).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  addCollaborator,
  changeProjectAccess,
  listCollaborators,
  listProjectAccess,
  removeCollaborator,
  searchUsers,
  updateCollaborator,
} from '../services/collaborators';
import { EmptySchema, IdParamsSchema, ProblemSchema, problems } from '../schemas/common';
import {
  AccessChangeBodySchema,
  AddCollaboratorBodySchema,
  CollaboratorParamsSchema,
  CollaboratorRoleBodySchema,
  MemberListSchema,
  MemberSchema,
  UserSearchQuerySchema,
  UserSearchResultListSchema,
} from '../schemas/collaborators';

/** The answers every v2 collaborator call may give besides its success. */
const collaboratorErrors = problems(400, 403, 404);

/** Registered in a signed-in scope (app.ts). */
const collaboratorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/auth/user/search',
    {
      schema: {
        querystring: UserSearchQuerySchema,
        response: {
          200: UserSearchResultListSchema,
          ...problems(400, 403, 404),
        },
      },
    },
    async (request) => searchUsers(ctx, request.auth.user, request.query),
  );

  app.get(
    '/app/project/:id/access',
    {
      schema: {
        params: IdParamsSchema,
        response: {
          200: MemberListSchema,
          ...problems(403, 404),
        },
      },
    },
    async (request) => listProjectAccess(ctx, request.auth.user, request.params.id),
  );

  app.patch(
    '/app/project/:id/access',
    {
      schema: {
        params: IdParamsSchema,
        body: AccessChangeBodySchema,
        response: {
          200: MemberListSchema,
          ...problems(400, 403, 404, 415),
        },
      },
    },
    async (request) => changeProjectAccess(ctx, request.auth.user, request.params.id, request.body),
  );

  app.get(
    '/v2/projects/:id/collaborators',
    {
      schema: {
        params: IdParamsSchema,
        response: { 200: MemberListSchema, ...collaboratorErrors },
      },
    },
    async (request) => listCollaborators(ctx, request.auth.user, request.params.id),
  );

  app.post(
    '/v2/projects/:id/collaborators',
    {
      schema: {
        params: IdParamsSchema,
        body: AddCollaboratorBodySchema,
        response: {
          201: MemberSchema,
          ...collaboratorErrors,
          ...problems(409, 415),
        },
      },
    },
    async (request, reply) => {
      const entry = await addCollaborator(ctx, request.auth.user, request.params.id, request.body);
      return reply.code(201).send(entry);
    },
  );

  app.patch(
    '/v2/projects/:id/collaborators/:user_id',
    {
      schema: {
        params: CollaboratorParamsSchema,
        body: CollaboratorRoleBodySchema,
        response: { 200: MemberSchema, ...collaboratorErrors, 415: ProblemSchema },
      },
    },
    async (request) =>
      updateCollaborator(
        ctx,
        request.auth.user,
        request.params.id,
        request.params.user_id,
        request.body.role,
      ),
  );

  app.delete(
    '/v2/projects/:id/collaborators/:user_id',
    {
      schema: {
        params: CollaboratorParamsSchema,
        response: { 204: EmptySchema, ...collaboratorErrors },
      },
    },
    async (request, reply) => {
      await removeCollaborator(ctx, request.auth.user, request.params.id, request.params.user_id);
      return reply.code(204).send();
    },
  );
};

export default collaboratorRoutes;
