/**
 * The v2 pull (client-compat §6.2), used by the python client when /config says
 * `v2_pull_enabled`: the delta between two versions, and the diffs it lists, single or
 * merged (services/pull/). Full files still come from GET /v1/project/raw.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentDisposition } from '../lib/paths';
import { projectDelta } from '../services/pull/delta';
import { prepareDiffDownload } from '../services/pull/merged-diffs';
import { IdParamsSchema, problems } from '../schemas/common';
import { FileBytesSchema } from '../schemas/downloads';
import {
  CodedProblemSchema,
  DeltaQuerySchema,
  ProjectDeltaSchema,
  RawDiffPathParamsSchema,
  RawDiffQuerySchema,
} from '../schemas/pull';

const pullV2Routes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v2/projects/:id/delta',
    {
      schema: {
        params: IdParamsSchema,
        querystring: DeltaQuerySchema,
        response: { 200: ProjectDeltaSchema, ...problems(400, 403, 404) },
      },
    },
    async (request) => projectDelta(ctx, request.auth.user, request.params.id, request.query),
  );

  async function sendDiff(
    request: FastifyRequest,
    reply: FastifyReply,
    projectId: string,
    file: unknown,
  ) {
    const download = await prepareDiffDownload(ctx, request.auth.user, projectId, file);
    // HEAD: the headers only, without opening the bytes.
    const body = request.method === 'HEAD' ? Readable.from([]) : await download.open();
    return reply
      .code(200)
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', attachmentDisposition(download.fileName))
      .header('content-length', download.size)
      .header('etag', `"${download.checksum}"`)
      .header('cache-control', 'private, no-cache')
      .send(body);
  }

  const diffResponses = {
    200: FileBytesSchema,
    ...problems(400, 403, 404),
    422: CodedProblemSchema,
  };

  app.get(
    '/v2/projects/:id/raw/diff',
    {
      schema: { params: IdParamsSchema, querystring: RawDiffQuerySchema, response: diffResponses },
    },
    async (request, reply) => sendDiff(request, reply, request.params.id, request.query.file),
  );

  // The python client asks with the diff's name in the path (…/raw/diff/<name>).
  app.get(
    '/v2/projects/:id/raw/diff/*',
    { schema: { params: RawDiffPathParamsSchema, response: diffResponses } },
    async (request, reply) => sendDiff(request, reply, request.params.id, request.params['*']),
  );
};

export default pullV2Routes;
