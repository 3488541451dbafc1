/**
 * Projects (api-reference A.5, §6.1): list, create, details, settings (PUT), clone,
 * scheduled deletion, leaving, the public flag and templates.
 */
import type { FastifyPluginAsync } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../errors';
import { clientMeta, deviceIdOf, requireLogin } from '../plugins/auth';
import { sendJson } from '../plugins/errors';
import {
  deleteProjectNow,
  getProjectV2,
  projectsByNames,
  removeProjectByName,
  renameProject,
} from '../services/client-projects';
import { cloneProject, type CloneInput } from '../services/clone';
import { getProject, type ProjectQuery } from '../services/project-detail';
import {
  leaveProject,
  listTemplates,
  scheduleProjectDeletion,
  setProjectVisibility,
  updateProjectAccess,
  type AccessSettings,
} from '../services/project-settings';
import { createProject, listProjects, type CreateProjectInput } from '../services/projects';
import { projectV2Schema } from './push-v2';
import {
  idParams,
  authErrorSchema,
  emptySchema,
  pageQueryProperties,
  problemSchema,
  stringList,
} from './schemas';
import { MAX_LAST_UPDATED_DAYS } from '../lib/limits';

const idList = { type: 'array', items: { type: 'integer' } } as const;

/** The keys a project list item and a project detail share (api-reference A.5). */
const projectCommonProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  namespace: { type: 'string' },
  version: { type: 'string' },
  created: { type: 'string' },
  updated: { type: 'string' },
  creator: { type: ['integer', 'null'] },
  disk_usage: { type: 'integer' },
  tags: stringList,
} as const;

export const projectListItemSchema = {
  type: 'object',
  properties: {
    ...projectCommonProperties,
    has_conflict: { type: 'boolean' },
    permissions: {
      type: 'object',
      properties: {
        upload: { type: 'boolean' },
        update: { type: 'boolean' },
        delete: { type: 'boolean' },
      },
    },
    access: {
      type: 'object',
      properties: {
        owners: idList,
        ownersnames: stringList,
        writers: idList,
        writersnames: stringList,
        editors: idList,
        editorsnames: stringList,
        readers: idList,
        readersnames: stringList,
        public: { type: 'boolean' },
      },
    },
  },
} as const;

const listQuery = {
  type: 'object',
  required: ['page', 'per_page'],
  properties: {
    ...pageQueryProperties,
    order_params: { type: 'string' },
    order_by: { type: 'string' },
    descending: { type: 'boolean' },
    namespace: { type: 'string' },
    only_namespace: { type: 'string' },
    name: { type: 'string' },
    user: { type: 'string' },
    last_updated_in: { type: 'integer', minimum: 0, maximum: MAX_LAST_UPDATED_DAYS },
    flag: { type: 'string', enum: ['created', 'shared'] },
    as_admin: { type: 'boolean' },
    public: { type: 'boolean' },
    only_public: { type: 'boolean' },
  },
} as const;

interface ListQuery {
  page: number;
  per_page: number;
  order_params?: string;
  order_by?: string;
  descending?: boolean;
  namespace?: string;
  only_namespace?: string;
  name?: string;
  user?: string;
  last_updated_in?: number;
  flag?: 'created' | 'shared';
  as_admin?: boolean;
  public?: boolean;
  only_public?: boolean;
}

const createBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    public: { type: 'boolean' },
    template: { type: ['string', 'null'] },
  },
} as const;

/** `vN` (or empty: the latest), as the reference's schema allows. */
export const versionParam = { type: 'string', pattern: '^$|^v\\d+$' } as const;

const fileDiffSchema = {
  type: ['object', 'null'],
  properties: {
    path: { type: 'string' },
    size: { type: 'integer' },
    checksum: { type: 'string' },
    location: { type: 'string' },
  },
} as const;

const nullableString = { type: ['string', 'null'] } as const;

export const projectFileSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    size: { type: 'integer' },
    checksum: { type: 'string' },
    mtime: nullableString,
    diff: fileDiffSchema,
    // `since` mode only:
    location: { type: 'string' },
    history: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          size: { type: 'integer' },
          checksum: nullableString,
          change: { type: 'string', enum: ['added', 'updated', 'removed'] },
          diff: fileDiffSchema,
        },
      },
    },
  },
} as const;

/** ProjectDetail (api-reference A.5); the `version=vN` mode leaves out the latest-only keys. */
export const projectDetailSchema = {
  type: 'object',
  properties: {
    ...projectCommonProperties,
    workspace_id: { type: 'integer' },
    public: { type: 'boolean' },
    removed_at: { type: 'null' },
    locked_until: nullableString,
    uploads: stringList,
    role: { type: ['string', 'null'], enum: ['owner', 'writer', 'reader', null] },
    permissions: projectListItemSchema.properties.permissions,
    access: projectListItemSchema.properties.access,
    files: { type: 'array', items: projectFileSchema },
  },
} as const;

const namespaceNameParams = {
  type: 'object',
  required: ['namespace', 'name'],
  properties: { namespace: { type: 'string' }, name: { type: 'string' } },
} as const;

/** PUT settings takes the same access keys a project answers with (api-reference A.5). */
const accessSettingsBody = {
  type: 'object',
  required: ['access'],
  properties: { access: projectListItemSchema.properties.access },
} as const;

const cloneBody = {
  type: 'object',
  properties: {
    namespace: { type: ['string', 'null'] },
    project: { type: ['string', 'null'] },
  },
} as const;

const projectRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get<{ Querystring: ListQuery }>(
    '/v1/project/paginated',
    {
      schema: {
        querystring: listQuery,
        response: {
          200: {
            type: 'object',
            required: ['projects', 'count'],
            properties: {
              projects: { type: 'array', items: projectListItemSchema },
              count: { type: 'integer' },
            },
          },
          400: problemSchema,
          404: problemSchema,
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

  app.post<{ Params: { namespace: string }; Body: CreateProjectInput }>(
    '/v1/project/:namespace',
    {
      preHandler: requireLogin,
      schema: {
        params: {
          type: 'object',
          required: ['namespace'],
          properties: { namespace: { type: 'string' } },
        },
        body: createBody,
        response: {
          200: emptySchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          409: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await createProject(ctx, request.auth.user, request.params.namespace, request.body, {
        ...clientMeta(request),
        deviceId: deviceIdOf(request),
      });
      return reply.code(200).send();
    },
  );

  app.get<{ Params: { namespace: string; name: string }; Querystring: ProjectQuery }>(
    '/v1/project/:namespace/:name',
    {
      schema: {
        params: namespaceNameParams,
        querystring: {
          type: 'object',
          properties: { since: versionParam, version: versionParam },
        },
        response: {
          200: projectDetailSchema,
          400: problemSchema,
          403: problemSchema,
          404: problemSchema,
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

  app.delete<{ Params: { namespace: string; name: string } }>(
    '/v1/project/:namespace/:name',
    {
      preHandler: requireLogin,
      schema: {
        params: namespaceNameParams,
        response: {
          200: emptySchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
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

  app.post<{ Body: { projects: string[] } }>(
    '/v1/project/by_names',
    {
      schema: {
        body: {
          type: 'object',
          required: ['projects'],
          properties: { projects: stringList },
        },
        response: {
          200: {
            type: 'object',
            additionalProperties: {
              anyOf: [
                {
                  type: 'object',
                  required: ['error'],
                  properties: { error: { type: 'integer' } },
                },
                projectListItemSchema,
              ],
            },
          },
          400: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request) => projectsByNames(ctx, request.auth.user, request.body.projects),
  );

  // The python client passes `since` / `version` here too when it names a project by id.
  app.get<{ Params: { id: string }; Querystring: ProjectQuery }>(
    '/v1/project/by_uuid/:id',
    {
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          properties: { since: versionParam, version: versionParam },
        },
        response: {
          200: projectDetailSchema,
          400: problemSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request) => getProject(ctx, request.auth.user, { id: request.params.id }, request.query),
  );

  app.put<{ Params: { namespace: string; name: string }; Body: { access: AccessSettings } }>(
    '/v1/project/:namespace/:name',
    {
      preHandler: requireLogin,
      schema: {
        params: namespaceNameParams,
        body: accessSettingsBody,
        response: {
          200: projectDetailSchema,
          207: problemSchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          415: problemSchema,
          422: problemSchema,
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

  app.post<{ Params: { namespace: string; project: string }; Body: CloneInput }>(
    '/v1/project/clone/:namespace/:project',
    {
      preHandler: requireLogin,
      schema: {
        params: {
          type: 'object',
          required: ['namespace', 'project'],
          properties: { namespace: { type: 'string' }, project: { type: 'string' } },
        },
        body: cloneBody,
        response: {
          200: emptySchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          409: problemSchema,
          415: problemSchema,
          422: problemSchema,
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

  app.post<{ Params: { id: string } }>(
    '/v2/projects/:id/scheduleDelete',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        response: {
          204: emptySchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await scheduleProjectDeletion(ctx, request.auth.user, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { id: string }; Querystring: { files_at_version?: string } }>(
    '/v2/projects/:id',
    {
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          properties: { files_at_version: { type: 'string', pattern: '^v\\d+$' } },
        },
        response: {
          200: projectV2Schema,
          400: problemSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request) =>
      getProjectV2(ctx, request.auth.user, request.params.id, request.query.files_at_version),
  );

  app.delete<{ Params: { id: string } }>(
    '/v2/projects/:id',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        response: {
          204: emptySchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await deleteProjectNow(ctx, request.auth.user, request.params.id);
      return reply.code(204).send();
    },
  );

  app.patch<{ Params: { id: string }; Body: { name: string } }>(
    '/v2/projects/:id',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        response: {
          204: emptySchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          409: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await renameProject(ctx, request.auth.user, request.params.id, request.body.name);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string } }>(
    '/app/project/unsubscribe/:id',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        response: {
          200: emptySchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await leaveProject(ctx, request.auth.user, request.params.id);
      return reply.code(200).send();
    },
  );

  app.patch<{ Params: { id: string }; Body: { public?: boolean } }>(
    '/app/project/:id/public',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        body: { type: 'object', properties: { public: { type: 'boolean' } } },
        response: {
          204: emptySchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          415: problemSchema,
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
      preHandler: requireLogin,
      schema: {
        response: {
          200: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                namespace: { type: 'string' },
                version: { type: 'string' },
              },
            },
          },
          401: authErrorSchema,
        },
      },
    },
    async (request) => listTemplates(ctx, request.auth.user),
  );
};

export default projectRoutes;
