/**
 * Raw request bodies (upload chunks, diagnostic logs): the route plugin passes every body
 * through unparsed, and the handler reads it as a byte stream (empty when none was sent).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

async function* noBody(): AsyncGenerator<Uint8Array> {}

/** Makes every body in this plugin's scope reach the handler as the raw stream. */
export function acceptRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
}

/** The request's body bytes. */
export function rawBody(request: FastifyRequest): AsyncIterable<Uint8Array> {
  return (request.body as IncomingMessage | undefined) ?? noBody();
}
