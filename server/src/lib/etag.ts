/** Conditional GETs: whether an If-None-Match header matches a strong ETag. */
import type { FastifyRequest } from 'fastify';

/** Whether an If-None-Match header matches the ETag (weak validators compare equal). */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
