/**
 * The map of a project's GeoPackage (issue 19). Contract and route list: schemas/map.ts.
 *
 *   GET /app/map/:namespace/:name/layers?file&version                 → MapLayers
 *   GET /app/map/:namespace/:name/tiles/:layer/:z/:x/:y.mvt?file&version → MVT bytes | 204
 *   GET /app/map/:namespace/:name/features/:layer?file&version&page&per_page&sort&order&filter&fids
 *                                                                     → MapFeaturePage
 *   GET /app/map/:namespace/:name/features/:layer/:fid?file&version   → MapFeature
 *   GET /app/map/:namespace/:name/changes?file&version                → MapChanges | 202
 *
 * Public routes: the services check read access as downloads do (anonymous visitors read
 * public projects). Answers about one file's content carry its SHA-1 in the ETag.
 * The file routes resolve their caller themselves (`deferAuth`, plugins/auth.ts): for a named
 * version, the file found with the access of the same credential in the last seconds
 * answers (services/permissions/access-window.ts), without reading the session or the
 * project again; the tiles of one view cost one access decision.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors';
import { notModified } from '../lib/etag';
import { ownerOf } from '../lib/sandbox';
import { withCallerWindow } from '../plugins/auth';
import { sendJson } from '../plugins/errors';
import { CHANGES_PENDING } from '../services/history';
import {
  mapChanges,
  mapFeature,
  mapFeatures,
  mapLayers,
  mapSourceKey,
  mapTile,
  openMapSource,
  type MapSource,
} from '../services/map';
import { closeMapFiles } from '../services/map/store';
import { mapWarmIdle } from '../services/map/warm';
import { EmptySchema, NamespaceNameParamsSchema, ProblemSchema, problems } from '../schemas/common';
import { ChangesetPendingSchema } from '../schemas/history';
import {
  MapChangesQuerySchema,
  MapChangesSchema,
  MapFeatureParamsSchema,
  MapFeaturePageSchema,
  MapFeatureQuerySchema,
  MapFeatureSchema,
  MapFileQuerySchema,
  type MapFileQuery,
  MapLayerParamsSchema,
  MapLayersSchema,
  MapTileParamsSchema,
  MAX_TILE_ZOOM,
  MVT_CONTENT_TYPE,
} from '../schemas/map';

const errors = problems(400, 403, 404, 422);

/** Bumped when the answers' format changes, so cached copies are not reused. */
const FORMAT = 'm2';

/**
 * Sets the caching headers of an answer about `source`; true when the client's copy is
 * current (the caller answers 304).
 */
function cacheHeaders(request: FastifyRequest, reply: FastifyReply, source: MapSource): boolean {
  const etag = `"${source.checksum}.${FORMAT}"`;
  reply
    .header('etag', etag)
    .header('cache-control', source.explicitVersion ? 'private, max-age=300' : 'private, no-cache');
  return notModified(request, etag);
}

/** The 304 answer (no body). */
const sendNotModified = (reply: FastifyReply) => reply.code(304).send();

/** A tile's z/x/y as numbers, checked against the zoom's range. */
export function tileCoordinates(params: { z: string; x: string; y: string }): {
  z: number;
  x: number;
  y: number;
} {
  const z = Number(params.z);
  const x = Number(params.x);
  const y = Number(params.y);
  if (z > MAX_TILE_ZOOM) throw badRequest(`Zoom must be 0-${MAX_TILE_ZOOM}`);
  const size = 2 ** z;
  if (x >= size || y >= size) throw badRequest(`Tile ${z}/${x}/${y} is outside the zoom's grid`);
  return { z, x, y };
}

const mapRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  app.addHook('onClose', async () => {
    await mapWarmIdle(ctx);
    closeMapFiles(ctx);
  });
  const refOf = (params: { namespace: string; name: string }) => ({
    namespace: params.namespace,
    name: params.name,
  });
  type FileRequest = FastifyRequest<{
    Params: { namespace: string; name: string };
    Querystring: MapFileQuery;
  }>;
  /** The request's file, its caller's access checked (or reused, see above). */
  const sourceOf = async (request: FileRequest): Promise<MapSource> => {
    const ref = refOf(request.params);
    const key = mapSourceKey(request.auth.credential, ref, request.query);
    const found = await withCallerWindow(request, key, (user) =>
      openMapSource(ctx, user, ref, request.query, ownerOf(user, request.ip)),
    );
    if (!found.reused) return found.value;
    return { ...found.value, owner: ownerOf(request.auth.user, request.ip) };
  };
  /** The request's file, with its caching headers set; null when the client's copy is current. */
  const current = async (request: FileRequest, reply: FastifyReply): Promise<MapSource | null> => {
    const source = await sourceOf(request);
    return cacheHeaders(request, reply, source) ? null : source;
  };
  /** The file routes resolve their caller in `sourceOf`. */
  const config = { deferAuth: true };

  app.get(
    '/app/map/:namespace/:name/layers',
    {
      config,
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: MapFileQuerySchema,
        response: { 200: MapLayersSchema, ...errors },
      },
    },
    async (request, reply) => {
      const source = await current(request, reply);
      if (!source) return sendNotModified(reply);
      return mapLayers(ctx, source);
    },
  );

  app.get(
    '/app/map/:namespace/:name/tiles/:layer/:z/:x/:y.mvt',
    {
      config,
      schema: {
        params: MapTileParamsSchema,
        querystring: MapFileQuerySchema,
        response: { ...errors, 204: EmptySchema },
      },
    },
    async (request, reply) => {
      const tile = tileCoordinates(request.params);
      const source = await current(request, reply);
      if (!source) return sendNotModified(reply);
      const bytes = await mapTile(ctx, source, request.params.layer, tile);
      if (!bytes) return reply.code(204).send();
      // Binary: no 200 schema, nothing to serialise.
      const raw: FastifyReply = reply;
      return raw.code(200).header('content-type', MVT_CONTENT_TYPE).send(bytes);
    },
  );

  app.get(
    '/app/map/:namespace/:name/features/:layer',
    {
      config,
      schema: {
        params: MapLayerParamsSchema,
        querystring: MapFeatureQuerySchema,
        response: { 200: MapFeaturePageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const source = await current(request, reply);
      if (!source) return sendNotModified(reply);
      return mapFeatures(ctx, source, request.params.layer, request.query);
    },
  );

  app.get(
    '/app/map/:namespace/:name/features/:layer/:fid',
    {
      config,
      schema: {
        params: MapFeatureParamsSchema,
        querystring: MapFileQuerySchema,
        response: { 200: MapFeatureSchema, ...errors },
      },
    },
    async (request, reply) => {
      const source = await current(request, reply);
      if (!source) return sendNotModified(reply);
      return mapFeature(ctx, source, request.params.layer, Number(request.params.fid));
    },
  );

  app.get(
    '/app/map/:namespace/:name/changes',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        querystring: MapChangesQuerySchema,
        response: {
          200: MapChangesSchema,
          202: ChangesetPendingSchema,
          ...errors,
          422: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      const answer = await mapChanges(
        ctx,
        request.auth.user,
        refOf(request.params),
        request.query,
        ownerOf(request.auth.user, request.ip),
      );
      if (answer === 'pending') {
        return sendJson(reply, 202, 'application/json', {
          status: 'pending',
          detail: CHANGES_PENDING,
        });
      }
      reply.header('cache-control', 'private, no-cache');
      return answer;
    },
  );
};

export default mapRoutes;
