/**
 * Exports of a layer (issue 32; contract and formats in schemas/export.ts):
 *
 *   GET /app/export/:namespace/:name/:layer?file&version&format&filter&sort&order&fids → the file
 *
 * Public like downloads (the service checks read access; a bearer token works). The file is
 * written in the sandbox to a temporary file, opened, unlinked at once (it lives until the
 * answer is sent) and streamed with its length.
 */
import { open, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { attachmentDisposition } from '../lib/paths';
import { ownerOf } from '../lib/sandbox';
import { problems } from '../schemas/common';
import { FileBytesSchema } from '../schemas/downloads';
import { ExportParamsSchema, ExportQuerySchema } from '../schemas/export';
import { prepareExport } from '../services/export';

const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/export/:namespace/:name/:layer',
    {
      schema: {
        params: ExportParamsSchema,
        querystring: ExportQuerySchema,
        response: { 200: FileBytesSchema, ...problems(400, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      const { namespace, name, layer } = request.params;
      const file = await prepareExport(
        ctx,
        request.auth.user,
        { namespace, name },
        layer,
        request.query,
        ownerOf(request.auth.user, request.ip),
        request.method !== 'HEAD',
      );
      const handle = await open(file.path, 'r').finally(() => rm(file.path, { force: true }));
      reply
        .code(200)
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('content-length', file.size)
        .header('cache-control', 'private, no-store')
        .header('x-feature-count', String(file.features));
      if (request.method === 'HEAD') {
        await handle.close();
        return reply.send(Readable.from([]));
      }
      return reply.send(handle.createReadStream());
    },
  );
};

export default exportRoutes;
