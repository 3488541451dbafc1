/**
 * A workspace's members and invitations (the reference's v2 calls, also used by the web app's
 * members screen) and the invitation link's calls. The first plugin is registered in a signed-in
 * scope, publicInvitationRoutes with the public routes (app.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../plugins/auth';
import { startBrowserSession } from './auth';
import { EmptySchema, FormOrProblemSchema, IdParamsSchema, problems } from '../schemas/common';
import {
  CreateInvitationSchema,
  CreateMemberAccountSchema,
  InvitationOfferSchema,
  InvitationParamsSchema,
  InvitationRegisterSchema,
  InvitationTokenParamsSchema,
  OwnInvitationParamsSchema,
  WorkspaceInvitationListSchema,
  WorkspaceInvitationSchema,
  WorkspaceMemberListSchema,
  WorkspaceMemberParamsSchema,
  WorkspaceMemberSchema,
  WorkspaceMemberUpdateSchema,
} from '../schemas/workspace-members';
import {
  acceptInvitation,
  acceptOwnInvitation,
  createMemberAccount,
  declineOwnInvitation,
  getMember,
  inviteMember,
  listMembers,
  listPendingInvitations,
  registerFromInvitation,
  removeMember,
  revokeInvitation,
  showInvitation,
  updateMember,
} from '../services/workspace-members';

const workspaceMemberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v2/workspaces/:id/members',
    {
      schema: {
        params: IdParamsSchema,
        response: { 200: WorkspaceMemberListSchema, ...problems(403, 404) },
      },
    },
    async (request) => listMembers(ctx, currentUser(request), request.params.id),
  );

  app.get(
    '/v2/workspaces/:id/members/:user_id',
    {
      schema: {
        params: WorkspaceMemberParamsSchema,
        response: { 200: WorkspaceMemberSchema, ...problems(403, 404) },
      },
    },
    async (request) =>
      getMember(ctx, currentUser(request), request.params.id, request.params.user_id),
  );

  app.patch(
    '/v2/workspaces/:id/members/:user_id',
    {
      schema: {
        params: WorkspaceMemberParamsSchema,
        body: WorkspaceMemberUpdateSchema,
        response: { 200: WorkspaceMemberSchema, ...problems(400, 403, 404, 415) },
      },
    },
    async (request) =>
      updateMember(
        ctx,
        currentUser(request),
        request.params.id,
        request.params.user_id,
        request.body,
      ),
  );

  app.delete(
    '/v2/workspaces/:id/members/:user_id',
    {
      schema: {
        params: WorkspaceMemberParamsSchema,
        response: { 204: EmptySchema, ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await removeMember(ctx, currentUser(request), request.params.id, request.params.user_id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/v2/users',
    {
      schema: {
        body: CreateMemberAccountSchema,
        response: { 201: WorkspaceMemberSchema, ...problems(400, 403, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      const member = await createMemberAccount(ctx, currentUser(request), request.body);
      return reply.code(201).send(member);
    },
  );

  app.get(
    '/v2/workspaces/:id/invitations',
    {
      schema: {
        params: IdParamsSchema,
        response: { 200: WorkspaceInvitationListSchema, ...problems(403, 404) },
      },
    },
    async (request) => listPendingInvitations(ctx, currentUser(request), request.params.id),
  );

  app.post(
    '/v2/workspaces/:id/invitations',
    {
      schema: {
        params: IdParamsSchema,
        body: CreateInvitationSchema,
        response: { 201: WorkspaceInvitationSchema, ...problems(400, 403, 404, 409, 415, 429) },
      },
    },
    async (request, reply) => {
      const invitation = await inviteMember(
        ctx,
        currentUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(201).send(invitation);
    },
  );

  app.delete(
    '/v2/workspaces/:id/invitations/:invitation_id',
    {
      schema: {
        params: InvitationParamsSchema,
        response: { 204: EmptySchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      await revokeInvitation(
        ctx,
        currentUser(request),
        request.params.id,
        request.params.invitation_id,
      );
      return reply.code(204).send();
    },
  );

  app.post(
    '/app/invitations/:token/accept',
    {
      schema: {
        params: InvitationTokenParamsSchema,
        response: { 200: InvitationOfferSchema, ...problems(400, 403, 404, 429) },
      },
    },
    async (request) =>
      acceptInvitation(ctx, currentUser(request), request.params.token, request.ip),
  );

  // The signed-in user's own invitations (the profile's `invitations`), from the header.
  app.post(
    '/app/user/invitations/:uuid/accept',
    {
      schema: {
        params: OwnInvitationParamsSchema,
        response: { 200: InvitationOfferSchema, ...problems(400, 404) },
      },
    },
    async (request) => acceptOwnInvitation(ctx, currentUser(request), request.params.uuid),
  );

  app.delete(
    '/app/user/invitations/:uuid',
    {
      schema: {
        params: OwnInvitationParamsSchema,
        response: { 204: EmptySchema, ...problems(404) },
      },
    },
    async (request, reply) => {
      await declineOwnInvitation(ctx, currentUser(request), request.params.uuid);
      return reply.code(204).send();
    },
  );
};

export default workspaceMemberRoutes;

/** What an invitation link offers, and registering from it: anyone holding the link (app.ts). */
export const publicInvitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/invitations/:token',
    {
      schema: {
        params: InvitationTokenParamsSchema,
        response: { 200: InvitationOfferSchema, ...problems(404, 429) },
      },
    },
    async (request) => showInvitation(ctx, request.params.token, request.ip),
  );

  app.post(
    '/app/invitations/:token/register',
    {
      schema: {
        params: InvitationTokenParamsSchema,
        body: InvitationRegisterSchema,
        response: {
          200: InvitationOfferSchema,
          400: FormOrProblemSchema,
          ...problems(404, 409, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const offer = await showInvitation(ctx, request.params.token, request.ip);
      const user = await registerFromInvitation(
        ctx,
        request.params.token,
        request.body,
        request.ip,
      );
      await startBrowserSession(ctx, request, reply, user);
      return { ...offer, account_exists: true };
    },
  );
};
