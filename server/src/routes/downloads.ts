/**
 * Downloads (api-reference A.9): one file with HTTP ranges, and the project as a ZIP.
 *
 * Raw files are sent with the sniffed Content-Type (inert types only, see lib/sniff.ts),
 * `Content-Disposition: attachment`, the SHA-1 as a strong ETag, and single byte ranges
 * (206, or 416 with `Content-Range: bytes *\/size`). HEAD answers the headers without
 * reading the file: clients learn the type and size that way, then ask for the first bytes.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { HttpProblem } from '../errors';
import { isClientPartPastEnd } from '../lib/client-ranges';
import { notModified } from '../lib/etag';
import { parseRange } from '../lib/http-range';
import { attachmentDisposition } from '../lib/paths';
import { zipStream } from '../lib/zip';
import { prepareProjectArchive, prepareRawDownload } from '../services/downloads';
import { EmptySchema, NamespaceNameParamsSchema, problems } from '../schemas/common';
import { ArchiveQuerySchema, FileBytesSchema, RawQuerySchema } from '../schemas/downloads';

/** The Range header, unless an If-Range names another version of the file. */
function rangeHeader(request: FastifyRequest, etag: string): string | undefined {
  const ifRange = request.headers['if-range'];
  if (typeof ifRange === 'string' && ifRange.trim() !== etag) return undefined;
  return request.headers.range;
}

/** The body of a HEAD answer: empty, keeping the Content-Length set on the reply. */
const emptyBody = () => Readable.from([]);

/**
 * The answers are files, not JSON: streams Fastify sends as they are (FileBytesSchema);
 * 304 (not modified) has no body.
 */
const downloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v1/project/raw/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: RawQuerySchema,
        response: {
          200: FileBytesSchema,
          206: FileBytesSchema,
          304: EmptySchema,
          ...problems(400, 403, 404, 416),
        },
      },
    },
    async (request, reply) => {
      const download = await prepareRawDownload(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.query,
      );
      const etag = `"${download.checksum}"`;
      if (notModified(request, etag)) {
        return reply
          .code(304)
          .header('etag', etag)
          .header('cache-control', 'private, no-cache')
          .send();
      }
      const range = parseRange(rangeHeader(request, etag), download.size);
      if (
        range.kind === 'unsatisfiable' &&
        isClientPartPastEnd(request.headers.range, download.size)
      ) {
        // The python client's last part past the end (lib/client-ranges.ts): no bytes.
        return reply
          .code(200)
          .header('etag', etag)
          .header('cache-control', 'private, no-cache')
          .header('content-length', 0)
          .send(emptyBody());
      }
      if (range.kind === 'unsatisfiable') {
        throw new HttpProblem(416, undefined, {
          headers: { 'content-range': `bytes */${download.size}` },
        });
      }
      reply.header('etag', etag).header('cache-control', 'private, no-cache');

      // Open the bytes before any other header is set: a failure is then a clean error.
      const slice = range.kind === 'range' ? { start: range.start, end: range.end } : undefined;
      const body = request.method === 'HEAD' ? emptyBody() : await download.open(slice);
      reply
        .header('content-type', download.contentType)
        .header('content-disposition', attachmentDisposition(download.fileName))
        .header('accept-ranges', 'bytes');
      if (slice) {
        reply
          .code(206)
          .header('content-range', `bytes ${slice.start}-${slice.end}/${download.size}`)
          .header('content-length', slice.end - slice.start + 1);
      } else {
        reply.code(200).header('content-length', download.size);
      }
      return reply.send(body);
    },
  );

  app.get(
    '/v1/project/download/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: ArchiveQuerySchema,
        response: { 200: FileBytesSchema, ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const archive = await prepareProjectArchive(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.query,
      );
      reply
        .code(200)
        .header('content-type', 'application/zip')
        .header('content-disposition', attachmentDisposition(archive.fileName))
        .header('cache-control', 'private, no-cache');
      if (request.method === 'HEAD') return reply.send(emptyBody());
      return reply.send(zipStream(archive.entries));
    },
  );
};

export default downloadRoutes;
