/**
 * OGC API - Features (issue 32; contract schemas/ogc.ts, users' guide
 * docs/ogc-api-features.md): read-only, per project and version (`latest` or `vN`).
 *
 *   GET /ogc/:namespace/:name/:version                              landing page
 *   GET /ogc/:namespace/:name/:version/conformance
 *   GET /ogc/:namespace/:name/:version/collections
 *   GET /ogc/:namespace/:name/:version/collections/:collectionId
 *   GET /ogc/:namespace/:name/:version/collections/:collectionId/items
 *   GET /ogc/:namespace/:name/:version/collections/:collectionId/items/:featureId
 *
 * Public routes: the service checks read access as downloads do (anonymous visitors read
 * public projects; a session or an `Authorization` token for private ones). JSON or HTML by
 * `f` or the Accept header; any origin may read the answers (no credentials are sent
 * across origins, so only what an anonymous visitor may read).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ownerOf } from '../lib/sandbox';
import { problems } from '../schemas/common';
import {
  OgcCollectionParamsSchema,
  OgcDocumentSchema,
  OgcItemParamsSchema,
  OgcItemQuerySchema,
  OgcItemsQuerySchema,
  OgcParamsSchema,
  OgcQuerySchema,
  type OgcParams,
  type OgcQuery,
} from '../schemas/ogc';
import {
  collection,
  collectionOf,
  collections,
  conformance,
  landing,
  openOgcProject,
  readItemsPage,
  readOneItem,
  versionLabel,
  type OgcProject,
} from '../services/ogc';
import {
  collectionHtml,
  collectionsHtml,
  conformanceHtml,
  itemHtml,
  itemsHtml,
  landingHtml,
  type Crumb,
  type HtmlFeature,
} from '../services/ogc/html';

type Format = 'json' | 'html';

/** `f`, else the Accept header: HTML when text/html comes before any JSON type. */
export function formatOf(request: FastifyRequest<{ Querystring: OgcQuery }>): Format {
  const f = request.query.f;
  if (f) return f === 'html' ? 'html' : 'json';
  const accept = String(request.headers.accept ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase());
  const first = accept.find((type) => type === 'text/html' || type.includes('json'));
  return first === 'text/html' ? 'html' : 'json';
}

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function send(reply: FastifyReply, type: string, body: string, project: OgcProject): FastifyReply {
  return reply
    .code(200)
    .header('content-type', type)
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header(
      'cache-control',
      project.versionName === 'latest' ? 'private, no-cache' : 'private, max-age=300',
    )
    .send(Buffer.from(body));
}

const sendJson = (
  reply: FastifyReply,
  doc: unknown,
  project: OgcProject,
  type = 'application/json',
) => send(reply, type, JSON.stringify(doc), project);
const sendHtml = (reply: FastifyReply, page: string, project: OgcProject) =>
  send(reply, 'text/html; charset=utf-8', page, project);

function crumbs(project: OgcProject, ...more: Crumb[]): Crumb[] {
  return [
    { label: `${project.namespace}/${project.name}`, href: project.appUrl },
    { label: versionLabel(project), href: `${project.base}?f=html` },
    ...more,
  ];
}

const answers = { 200: OgcDocumentSchema, ...problems(400, 403, 404, 422) };

const ogcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const open = (request: FastifyRequest<{ Params: OgcParams }>) =>
    openOgcProject(
      ctx,
      request.auth.user,
      request.params,
      origin(request),
      ownerOf(request.auth.user, request.ip),
    );

  const landingRoute = async (
    request: FastifyRequest<{ Params: OgcParams; Querystring: OgcQuery }>,
    reply: FastifyReply,
  ) => {
    const format = formatOf(request);
    const project = await open(request);
    const doc = landing(ctx, project, format);
    if (format === 'html')
      return sendHtml(reply, landingHtml(doc, crumbs(project).slice(0, 1)), project);
    return sendJson(reply, doc, project);
  };
  const landingSchema = { params: OgcParamsSchema, querystring: OgcQuerySchema, response: answers };
  app.get('/ogc/:namespace/:name/:version', { schema: landingSchema }, landingRoute);
  app.get('/ogc/:namespace/:name/:version/', { schema: landingSchema }, landingRoute);

  app.get(
    '/ogc/:namespace/:name/:version/conformance',
    { schema: landingSchema },
    async (request, reply) => {
      const format = formatOf(request);
      const project = await open(request);
      const doc = conformance();
      if (format === 'html') {
        return sendHtml(
          reply,
          conformanceHtml(doc.conformsTo, crumbs(project, { label: 'Conformance' })),
          project,
        );
      }
      return sendJson(reply, doc, project);
    },
  );

  app.get(
    '/ogc/:namespace/:name/:version/collections',
    { schema: landingSchema },
    async (request, reply) => {
      const format = formatOf(request);
      const project = await open(request);
      const doc = await collections(ctx, project, format);
      if (format === 'html') {
        return sendHtml(
          reply,
          collectionsHtml(doc, crumbs(project, { label: 'Collections' })),
          project,
        );
      }
      return sendJson(reply, doc, project);
    },
  );

  const collectionsCrumb = (project: OgcProject): Crumb => ({
    label: 'Collections',
    href: `${project.base}/collections?f=html`,
  });

  app.get(
    '/ogc/:namespace/:name/:version/collections/:collectionId',
    {
      schema: { params: OgcCollectionParamsSchema, querystring: OgcQuerySchema, response: answers },
    },
    async (request, reply) => {
      const format = formatOf(request);
      const project = await open(request);
      const entry = collectionOf(project, request.params.collectionId);
      const doc = await collection(ctx, project, entry, format);
      if (format === 'html') {
        return sendHtml(
          reply,
          collectionHtml(doc, crumbs(project, collectionsCrumb(project), { label: doc.title })),
          project,
        );
      }
      return sendJson(reply, doc, project);
    },
  );

  app.get(
    '/ogc/:namespace/:name/:version/collections/:collectionId/items',
    {
      schema: {
        params: OgcCollectionParamsSchema,
        querystring: OgcItemsQuerySchema,
        response: answers,
      },
    },
    async (request, reply) => {
      const format = formatOf(request);
      const project = await open(request);
      const entry = collectionOf(project, request.params.collectionId);
      const page = await readItemsPage(ctx, project, entry, request.query, format);
      reply.header('content-crs', `<${page.crs}>`);
      if (format === 'json') return send(reply, 'application/geo+json', page.body, project);
      const features = JSON.parse(`[${page.features}]`) as HtmlFeature[];
      const collectionHref = `${project.base}/collections/${encodeURIComponent(entry.id)}`;
      return sendHtml(
        reply,
        itemsHtml(
          `Features of ${entry.layer.title ?? entry.layer.name}`,
          entry.layer.columns.map((c) => c.name),
          features,
          (fid) => `${collectionHref}/items/${fid}?f=html`,
          { next: page.next ?? undefined, first: request.query.cursor ? page.first : undefined },
          crumbs(
            project,
            collectionsCrumb(project),
            { label: entry.layer.title ?? entry.layer.name, href: `${collectionHref}?f=html` },
            { label: 'Features' },
          ),
        ),
        project,
      );
    },
  );

  app.get(
    '/ogc/:namespace/:name/:version/collections/:collectionId/items/:featureId',
    { schema: { params: OgcItemParamsSchema, querystring: OgcItemQuerySchema, response: answers } },
    async (request, reply) => {
      const format = formatOf(request);
      const project = await open(request);
      const entry = collectionOf(project, request.params.collectionId);
      const fid = Number(request.params.featureId);
      const item = await readOneItem(ctx, project, entry, fid, request.query.crs, format);
      reply.header('content-crs', `<${item.crs}>`);
      if (format === 'json') return send(reply, 'application/geo+json', item.body, project);
      const collectionHref = `${project.base}/collections/${encodeURIComponent(entry.id)}`;
      return sendHtml(
        reply,
        itemHtml(
          `Feature ${fid}`,
          JSON.parse(item.body) as HtmlFeature,
          crumbs(
            project,
            collectionsCrumb(project),
            { label: entry.layer.title ?? entry.layer.name, href: `${collectionHref}?f=html` },
            { label: 'Features', href: `${collectionHref}/items?f=html` },
            { label: String(fid) },
          ),
        ),
        project,
      );
    },
  );
};

export default ogcRoutes;
