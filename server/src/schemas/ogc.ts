/**
 * OGC API - Features (issue 32): Part 1 Core, GeoJSON and HTML, and Part 2 (CRS by
 * reference) for each layer's own CRS, read-only, for one project at one version. The
 * project's GeoPackage and SQLite files' feature layers are its collections. Same access as
 * downloads: public projects for anyone; private ones for readers, with a session or a token
 * in `Authorization` (`Bearer <token>`, or Basic with the token as the password), so GDAL
 * and QGIS connect without a cookie. Documented for users in docs/ogc-api-features.md.
 *
 *   {version}: `latest` or `vN`.
 *   GET /ogc/{namespace}/{name}/{version}                          landing page
 *   GET /ogc/{namespace}/{name}/{version}/conformance              conformance classes
 *   GET /ogc/{namespace}/{name}/{version}/collections              collections
 *   GET /ogc/{namespace}/{name}/{version}/collections/{id}         one collection
 *   GET /ogc/{namespace}/{name}/{version}/collections/{id}/items   features
 *   GET /ogc/{namespace}/{name}/{version}/collections/{id}/items/{fid}  one feature
 *
 * Every answer is JSON (GeoJSON for features) or HTML: `f=json` / `f=html`, else by the
 * Accept header (a browser's text/html gets HTML). Items take `limit` (1-10000, default
 * 10; more is served as 10000), `bbox` (minx,miny,maxx,maxy), `bbox-crs`, `crs`,
 * `datetime` (where the layer has a date or datetime column: its first), `cursor` (from the
 * `next` link), and `<column>=<value>` (equality on any attribute column). Any other
 * parameter is a 400.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common';

/**
 * Every 200 answer: the document already written as text (JSON, GeoJSON or HTML, by `f` or
 * Accept). Fastify sends a string as it is: the schema records the answer in the contract.
 */
export const OgcDocumentSchema = Type.Unsafe<string>({ type: 'string' });

/** A version in an OGC path: `latest` or `vN`. */
export const OgcVersionSchema = Type.String({ pattern: '^(latest|v\\d{1,9})$' });

export const OgcParamsSchema = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  version: OgcVersionSchema,
});
export type OgcParams = Static<typeof OgcParamsSchema>;

export const OgcCollectionParamsSchema = Type.Object({
  ...OgcParamsSchema.properties,
  collectionId: Type.String({ minLength: 1, maxLength: 5000 }),
});
export type OgcCollectionParams = Static<typeof OgcCollectionParamsSchema>;

export const OgcItemParamsSchema = Type.Object({
  ...OgcCollectionParamsSchema.properties,
  featureId: Type.String({ pattern: '^-?\\d{1,16}$' }),
});
export type OgcItemParams = Static<typeof OgcItemParamsSchema>;

export const OGC_FORMATS = ['json', 'html'] as const;
export type OgcFormat = (typeof OGC_FORMATS)[number];

/** `f`: the answer's format (GeoJSON is `json` for features). */
export const OgcQuerySchema = Type.Object({
  f: Type.Optional(StringEnum([...OGC_FORMATS, 'geojson'])),
});
export type OgcQuery = Static<typeof OgcQuerySchema>;

/** Most features a page serves (a larger `limit` is served as this). */
export const OGC_MAX_LIMIT = 10_000;
export const OGC_DEFAULT_LIMIT = 10;

export const OgcItemsQuerySchema = Type.Object({
  ...OgcQuerySchema.properties,
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  bbox: Type.Optional(Type.String({ maxLength: 400 })),
  'bbox-crs': Type.Optional(Type.String({ maxLength: 200 })),
  crs: Type.Optional(Type.String({ maxLength: 200 })),
  datetime: Type.Optional(Type.String({ maxLength: 100 })),
  cursor: Type.Optional(Type.String({ pattern: '^-?\\d{1,16}$' })),
});
export type OgcItemsQuery = Static<typeof OgcItemsQuerySchema> & Record<string, unknown>;

export const OgcItemQuerySchema = Type.Object({
  ...OgcQuerySchema.properties,
  crs: Type.Optional(Type.String({ maxLength: 200 })),
});
export type OgcItemQuery = Static<typeof OgcItemQuerySchema>;

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const GREGORIAN = 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian';

export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
] as const;

export interface OgcLink {
  href: string;
  rel: string;
  type: string;
  title?: string;
}

export interface OgcLanding {
  title: string;
  description: string;
  links: OgcLink[];
}

export interface OgcConformance {
  conformsTo: string[];
}

export interface OgcCollection {
  id: string;
  title: string;
  description: string;
  itemType: 'feature';
  extent: {
    spatial: { bbox: number[][]; crs: string };
    temporal?: { interval: (string | null)[][]; trs: string };
  };
  crs: string[];
  storageCrs: string;
  links: OgcLink[];
}

export interface OgcCollections {
  collections: OgcCollection[];
  links: OgcLink[];
}
