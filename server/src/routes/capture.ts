/**
 * Field capture (issue 34): forms and edit batches. Contract and route descriptions in
 * schemas/forms.ts and schemas/edits.ts; services in services/capture/.
 *
 *   GET  /app/map/:namespace/:name/forms?version   → ProjectForms (read access, as the map)
 *   POST /v2/projects/:id/edits                    → EditResult (signed in, upload rights;
 *                                                     `Mm-push-id` makes a retry safe)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { notModified } from '../lib/etag';
import { clientMeta, currentUser, deviceIdOf } from '../plugins/auth';
import { IdParamsSchema, NamespaceNameParamsSchema, problems } from '../schemas/common';
import { EDITS_BODY_LIMIT, EditBatchSchema, EditResultSchema } from '../schemas/edits';
import { FormsQuerySchema, ProjectFormsSchema } from '../schemas/forms';
import { submitEdits } from '../services/capture/edits';
import { projectForms } from '../services/capture/project-forms';
import { beginPushId, pushIdOnResponse, pushIdOnSend, replayPushId } from '../services/push';

/** The forms: public route, the service checks read access. */
export const formRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/app/map/:namespace/:name/forms',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: FormsQuerySchema,
        response: { 200: ProjectFormsSchema, ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const { body, etag, explicitVersion } = await projectForms(
        app.ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.query,
      );
      // Serialised once per ETag (ProjectForms): sent as bytes.
      const raw: FastifyReply = reply;
      raw
        .header('etag', etag)
        .header('cache-control', explicitVersion ? 'private, max-age=300' : 'private, no-cache');
      if (notModified(request, etag)) return raw.code(304).send();
      return raw.code(200).header('content-type', 'application/json; charset=utf-8').send(body);
    },
  );
};

/** Edit batches: signed in (registered in the signedIn scope). */
export const editRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v2/projects/:id/edits',
    {
      bodyLimit: EDITS_BODY_LIMIT,
      onSend: pushIdOnSend,
      onResponse: pushIdOnResponse,
      schema: {
        params: IdParamsSchema,
        body: EditBatchSchema,
        response: {
          200: EditResultSchema,
          201: EditResultSchema,
          ...problems(400, 403, 404, 409, 413, 422, 423),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const replay = await beginPushId(app.ctx, request, user.id, `edits ${request.params.id}`);
      if (replay) return replayPushId(reply, replay);
      const { status, result } = await submitEdits(app.ctx, user, request.params.id, request.body, {
        ...clientMeta(request),
        deviceId: deviceIdOf(request),
      });
      return reply.code(status).send(result);
    },
  );
};
