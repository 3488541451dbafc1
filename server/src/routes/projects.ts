/**
 * Projects (api-reference A.5, §6.1): list, create, details, settings (PUT), clone,
 * scheduled deletion, leaving, the public flag and templates.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../errors';
import { clientMeta, deviceIdOf } from '../plugins/auth';
import { sendJson } from '../plugins/errors';
import {
  deleteProjectNow,
  getProjectV2,
  projectsByNames,
  removeProjectByName,
  renameProject,
} from '../services/client-projects';
import { cloneProject } from '../services/clone';
import { getProject } from '../services/project-detail';
import {
  leaveProject,
  scheduleProjectDeletion,
  setProjectVisibility,
  updateProjectAccess,
} from '../services/project-settings';
import { createProject, listProjects } from '../services/projects';
import { createProjectFromTemplate, listTemplates } from '../services/templates';
import {
  EmptySchema,
  IdParamsSchema,
  NamespaceNameParamsSchema,
  NamespaceParamsSchema,
  NamespaceProjectParamsSchema,
  problems,
} from '../schemas/common';
import {
  AccessSettingsBodySchema,
  ByNamesBodySchema,
  ByNamesSchema,
  CloneBodySchema,
  CreateProjectBodySchema,
  ProjectAnswerSchema,
  ProjectDetailSchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  ProjectQuerySchema,
  ProjectV2QuerySchema,
  ProjectV2Schema,
  RenameBodySchema,
  TemplateListSchema,
  VisibilityBodySchema,
} from '../schemas/projects';

/**
 * Reading projects: anyone may call these (an anonymous caller sees public projects; the
 * permission checks are the services').
 */
export const publicProjectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v1/project/paginated',
    {
      schema: {
        querystring: ProjectListQuerySchema,
        response: {
          200: ProjectListSchema,
          ...problems(400, 404),
        },
      },
    },
    async (request) => {
      const q = request.query;
      // A signed-in session brings the snapshot it was read under; an anonymous request has
      // read nothing yet, so its snapshot is taken now. A bearer token's user was read
      // without one: no cache.
      const snapshot =
        request.auth.snapshot ?? (request.auth.user ? null : await ctx.readCache.snapshot());
      return listProjects(
        ctx,
        request.auth.user,
        {
          page: q.page,
          perPage: q.per_page,
          orderParams: q.order_params,
          orderBy: q.order_by,
          descending: q.descending,
          namespace: q.namespace,
          onlyNamespace: q.only_namespace,
          name: q.name,
          user: q.user,
          lastUpdatedIn: q.last_updated_in,
          flag: q.flag,
          asAdmin: q.as_admin,
          public: q.public,
          onlyPublic: q.only_public,
        },
        snapshot,
      );
    },
  );

  app.get(
    '/v1/project/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: ProjectQuerySchema,
        response: {
          200: ProjectAnswerSchema,
          ...problems(400, 403, 404),
        },
      },
    },
    async (request) =>
      getProject(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.query,
      ),
  );

  app.post(
    '/v1/project/by_names',
    {
      // A lookup: a read-only personal token may call it.
      config: { personalToken: 'read' },
      schema: {
        body: ByNamesBodySchema,
        response: {
          200: ByNamesSchema,
          ...problems(400, 415),
        },
      },
    },
    async (request) => projectsByNames(ctx, request.auth.user, request.body.projects),
  );

  // The python client passes `since` / `version` here too when it names a project by id.
  app.get(
    '/v1/project/by_uuid/:id',
    {
      schema: {
        params: IdParamsSchema,
        querystring: ProjectQuerySchema,
        response: {
          200: ProjectAnswerSchema,
          ...problems(400, 403, 404),
        },
      },
    },
    async (request) => getProject(ctx, request.auth.user, { id: request.params.id }, request.query),
  );

  app.get(
    '/v2/projects/:id',
    {
      schema: {
        params: IdParamsSchema,
        querystring: ProjectV2QuerySchema,
        response: {
          200: ProjectV2Schema,
          ...problems(400, 403, 404),
        },
      },
    },
    async (request) =>
      getProjectV2(ctx, request.auth.user, request.params.id, request.query.files_at_version),
  );
};

/** Creating and changing projects (registered in a signed-in scope, app.ts). */
export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/v1/project/:namespace',
    {
      schema: {
        params: NamespaceParamsSchema,
        body: CreateProjectBodySchema,
        response: {
          200: EmptySchema,
          ...problems(400, 403, 404, 409, 415),
        },
      },
    },
    async (request, reply) => {
      const meta = { ...clientMeta(request), deviceId: deviceIdOf(request) };
      const { template } = request.body;
      if (template) {
        const body = { ...request.body, template };
        await createProjectFromTemplate(
          ctx,
          request.auth.user,
          request.params.namespace,
          body,
          meta,
        );
      } else {
        await createProject(ctx, request.auth.user, request.params.namespace, request.body, meta);
      }
      return reply.code(200).send();
    },
  );

  app.delete(
    '/v1/project/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        response: {
          200: EmptySchema,
          ...problems(403, 404),
        },
      },
    },
    async (request, reply) => {
      await removeProjectByName(ctx, request.auth.user, {
        namespace: request.params.namespace,
        name: request.params.name,
      });
      return reply.code(200).send();
    },
  );

  app.put(
    '/v1/project/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        body: AccessSettingsBodySchema,
        response: {
          200: ProjectDetailSchema,
          ...problems(207, 400, 403, 404, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const result = await updateProjectAccess(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.body.access,
      );
      if (result.status === 200) return result.project;
      const { code, detail, ...invalid } = result.error;
      const extra =
        result.status === 207
          ? { code, ...invalid, project: result.project }
          : { code, ...invalid };
      return sendJson(
        reply,
        result.status,
        PROBLEM_CONTENT_TYPE,
        problemBody(result.status, detail, extra),
      );
    },
  );

  app.post(
    '/v1/project/clone/:namespace/:project',
    {
      schema: {
        params: NamespaceProjectParamsSchema,
        body: CloneBodySchema,
        response: {
          200: EmptySchema,
          ...problems(400, 403, 404, 409, 415, 422),
        },
      },
    },
    async (request, reply) => {
      await cloneProject(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.project },
        request.body ?? {},
        { ...clientMeta(request), deviceId: deviceIdOf(request) },
      );
      return reply.code(200).send();
    },
  );

  app.post(
    '/v2/projects/:id/scheduleDelete',
    {
      schema: {
        params: IdParamsSchema,
        response: {
          204: EmptySchema,
          ...problems(403, 404),
        },
      },
    },
    async (request, reply) => {
      await scheduleProjectDeletion(ctx, request.auth.user, request.params.id);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/projects/:id',
    {
      schema: {
        params: IdParamsSchema,
        response: {
          204: EmptySchema,
          ...problems(403, 404),
        },
      },
    },
    async (request, reply) => {
      await deleteProjectNow(ctx, request.auth.user, request.params.id);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/v2/projects/:id',
    {
      schema: {
        params: IdParamsSchema,
        body: RenameBodySchema,
        response: {
          204: EmptySchema,
          ...problems(400, 403, 404, 409, 415),
        },
      },
    },
    async (request, reply) => {
      await renameProject(ctx, request.auth.user, request.params.id, request.body.name);
      return reply.code(204).send();
    },
  );

  app.post(
    '/app/project/unsubscribe/:id',
    {
      schema: {
        params: IdParamsSchema,
        response: {
          200: EmptySchema,
          ...problems(400, 403, 404),
        },
      },
    },
    async (request, reply) => {
      await leaveProject(ctx, request.auth.user, request.params.id);
      return reply.code(200).send();
    },
  );

  app.patch(
    '/app/project/:id/public',
    {
      schema: {
        params: IdParamsSchema,
        body: VisibilityBodySchema,
        response: {
          204: EmptySchema,
          ...problems(400, 403, 404, 415),
        },
      },
    },
    async (request, reply) => {
      await setProjectVisibility(
        ctx,
        request.auth.user,
        request.params.id,
        request.body.public ?? false,
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/app/project/templates',
    {
      schema: {
        response: {
          200: TemplateListSchema,
        },
      },
    },
    async (request) => listTemplates(ctx, request.auth.user),
  );
};
