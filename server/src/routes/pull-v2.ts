/**
 * The v2 pull (client-compat §6.2), used by the python client when /config says
 * `v2_pull_enabled`: the delta between two versions, and the diffs it lists, single or
 * merged (services/pull/). Full files still come from GET /v1/project/raw.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { attachmentDisposition } from '../lib/paths';
import { projectDelta } from '../services/pull/delta';
import { prepareDiffDownload } from '../services/pull/merged-diffs';
import { ProblemSchema as problemSchema } from '../schemas/common';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
} as const;

const deltaItemSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    size: { type: 'integer' },
    checksum: { type: 'string' },
    version: { type: 'string' },
    change: { type: 'string' },
    diffs: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' } } },
    },
  },
} as const;

const deltaSchema = {
  type: 'object',
  properties: {
    to_version: { type: 'string' },
    items: { type: 'array', items: deltaItemSchema },
  },
} as const;

/** A problem with the reference's `code` (DiffDownloadError). */
const codedProblemSchema = {
  ...problemSchema,
  properties: { ...problemSchema.properties, code: { type: 'string' } },
} as const;

const errorResponses = {
  400: problemSchema,
  403: problemSchema,
  404: problemSchema,
} as const;

const pullV2Routes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get<{ Params: { id: string }; Querystring: { since?: string; to?: string } }>(
    '/v2/projects/:id/delta',
    {
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          properties: { since: { type: 'string' }, to: { type: 'string' } },
        },
        response: { 200: deltaSchema, ...errorResponses },
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

  const diffResponses = { ...errorResponses, 422: codedProblemSchema } as const;

  app.get<{ Params: { id: string }; Querystring: { file?: string } }>(
    '/v2/projects/:id/raw/diff',
    {
      schema: {
        params: idParams,
        querystring: { type: 'object', properties: { file: { type: 'string' } } },
        response: diffResponses,
      },
    },
    async (request, reply) => sendDiff(request, reply, request.params.id, request.query.file),
  );

  // The python client asks with the diff's name in the path (…/raw/diff/<name>).
  app.get<{ Params: { id: string; '*': string } }>(
    '/v2/projects/:id/raw/diff/*',
    {
      schema: {
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' }, '*': { type: 'string' } },
        },
        response: diffResponses,
      },
    },
    async (request, reply) => sendDiff(request, reply, request.params.id, request.params['*']),
  );
};

export default pullV2Routes;
