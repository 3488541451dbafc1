/**
 * OGC API - Features for a project at a version (issue 32; contract schemas/ogc.ts, routes
 * routes/ogc.ts, users' guide docs/ogc-api-features.md). Access is checked as for downloads
 * (read); the collections are the drawable feature layers of the version's GeoPackage and
 * SQLite files, their layers read as the map reads them (map/store.ts, by content); pages
 * of features are read in the sandbox (items.ts).
 */
import type { AppContext } from '../../context';
import { listCurrentFiles, listFilesAtVersion } from '../../db/queries/files';
import type { User } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { sandboxModule } from '../../lib/sandbox';
import type { MapLayer } from '../../schemas/map';
import {
  CONFORMANCE,
  CRS84,
  GREGORIAN,
  OGC_DEFAULT_LIMIT,
  OGC_MAX_LIMIT,
  type OgcCollection,
  type OgcCollections,
  type OgcConformance,
  type OgcItemsQuery,
  type OgcLanding,
  type OgcLink,
  type OgcParams,
} from '../../schemas/ogc';
import { isVersionedFile, versionNumber } from '../../schemas/protocol';
import { LAYER_TOO_COMPLEX } from '../map/read';
import { Lru } from '../map/lru';
import { mapFile, type MapFile } from '../map/store';
import { projectFor } from '../permissions';
import { VERSION_NOT_FOUND } from '../project-detail';
import { crsUri, normaliseCrs } from './crs';
import type * as Items from './items';
import type { DatetimeFilter, ItemsRequest, OutputCrs } from './items';

const items = sandboxModule<typeof Items>(new URL('./items.ts', import.meta.url));
const runItems = items.fn('readItems');
const runItem = items.fn('readItem');
const runDateRange = items.fn('readDateRange');

export const collectionNotFound = (id: string) => `Collection ${id} not found`;
export const unknownParameter = (name: string) => `Unknown parameter ${name}`;
export const invalidParameter = (name: string) => `Invalid value of ${name}`;
export const UNSUPPORTED_CRS = 'The collection does not offer this CRS';

/** A collection: one drawable feature layer of a file. */
export interface OgcLayer {
  id: string;
  path: string;
  file: MapFile;
  layer: MapLayer;
  /** CRS URIs offered: CRS84, then the layer's own when it has an EPSG code. */
  crs: string[];
  storageCrs: string;
}

/** A project at a version, as OGC API - Features shows it. */
export interface OgcProject {
  namespace: string;
  name: string;
  /** `latest` or `vN`, as the path says; `resolved` is the number. */
  versionName: string;
  resolved: number;
  /** The absolute address of the landing page (no trailing slash). */
  base: string;
  /** The web app's page of the project. */
  appUrl: string;
  layers: OgcLayer[];
  owner: string;
}

const enc = encodeURIComponent;

/** The project at the version of the path, with its collections (403/404 as downloads). */
export async function openOgcProject(
  ctx: AppContext,
  caller: User | null,
  params: OgcParams,
  origin: string,
  owner: string,
): Promise<OgcProject> {
  const access = await projectFor(
    ctx,
    caller,
    { namespace: params.namespace, name: params.name },
    'read',
  );
  const project = access.project;
  const latest = params.version === 'latest';
  const resolved = latest ? project.latestVersion : versionNumber(params.version);
  if (resolved > project.latestVersion) throw notFound(VERSION_NOT_FOUND);
  const db = ctx.database.db;
  const rows = latest
    ? await listCurrentFiles(db, project.id)
    : await listFilesAtVersion(db, project.id, resolved);
  const found: Omit<OgcLayer, 'id'>[] = [];
  for (const row of rows.filter((r) => isVersionedFile(r.path))) {
    const file = await mapFile(
      ctx,
      { key: row.blobKey, checksum: row.checksum, size: row.size },
      owner,
    );
    for (const layer of file.layers.values()) {
      if (!layer.drawable) continue;
      const own = crsUri(layer.crs);
      found.push({
        path: row.path,
        file,
        layer,
        crs: own && own !== CRS84 ? [CRS84, own] : [CRS84],
        storageCrs: own ?? CRS84,
      });
    }
  }
  const counts = new Map<string, number>();
  for (const { layer } of found) counts.set(layer.name, (counts.get(layer.name) ?? 0) + 1);
  return {
    namespace: access.workspace.name,
    name: project.name,
    versionName: params.version,
    resolved,
    base: `${origin}/ogc/${enc(params.namespace)}/${enc(params.name)}/${params.version}`,
    appUrl: `${origin}/projects/${enc(params.namespace)}/${enc(params.name)}`,
    layers: found.map((entry) => ({
      ...entry,
      id:
        counts.get(entry.layer.name) === 1 ? entry.layer.name : `${entry.path}:${entry.layer.name}`,
    })),
    owner,
  };
}

export function collectionOf(project: OgcProject, id: string): OgcLayer {
  const layer = project.layers.find((entry) => entry.id === id);
  if (!layer) throw notFound(collectionNotFound(id));
  return layer;
}

const JSON_TYPE = 'application/json';
const GEOJSON = 'application/geo+json';
const HTML = 'text/html';

const link = (href: string, rel: string, type: string, title?: string): OgcLink =>
  title ? { href, rel, type, title } : { href, rel, type };

/** Both encodings of a resource: `self` in `format`, `alternate` in the other. */
function selfLinks(href: string, format: 'json' | 'html', jsonType = JSON_TYPE): OgcLink[] {
  const json = link(
    `${href}?f=json`,
    format === 'json' ? 'self' : 'alternate',
    jsonType,
    'This document as JSON',
  );
  const page = link(
    `${href}?f=html`,
    format === 'html' ? 'self' : 'alternate',
    HTML,
    'This document as HTML',
  );
  return format === 'json' ? [json, page] : [page, json];
}

export function versionLabel(project: OgcProject): string {
  return project.versionName === 'latest'
    ? `the latest version (v${project.resolved})`
    : project.versionName;
}

export function landing(ctx: AppContext, project: OgcProject, format: 'json' | 'html'): OgcLanding {
  return {
    title: `${project.namespace}/${project.name}`,
    description: `The feature layers of ${project.namespace}/${project.name} at ${versionLabel(project)}, read-only.`,
    links: [
      ...selfLinks(project.base, format),
      link(`${project.base}/conformance`, 'conformance', JSON_TYPE, 'Conformance classes'),
      link(`${project.base}/collections`, 'data', JSON_TYPE, 'Collections'),
      link(`${project.base}/collections?f=html`, 'data', HTML, 'Collections as HTML'),
      link(`${ctx.config.docsUrl}/ogc-api-features`, 'service-doc', HTML, 'Documentation'),
      link(project.appUrl, 'related', HTML, 'The project in Waymark'),
    ],
  };
}

export function conformance(): OgcConformance {
  return { conformsTo: [...CONFORMANCE] };
}

/** A date column's first and last value (read once per file content and layer). */
const dateRanges = new Lru<[string | null, string | null]>(4096);

/** The first date or datetime column of a layer: the one `datetime` filters on. */
export function dateColumn(layer: MapLayer): string | null {
  return layer.columns.find((c) => c.type === 'date' || c.type === 'datetime')?.name ?? null;
}

/** A date as RFC 3339 (a date alone: midnight UTC). */
function rfc3339(value: string | null): string | null {
  if (value === null) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00:00Z`;
  const time = Date.parse(
    value.includes('T') || !value.includes(' ') ? value : value.replace(' ', 'T'),
  );
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export async function collection(
  ctx: AppContext,
  project: OgcProject,
  entry: OgcLayer,
  format: 'json' | 'html',
): Promise<OgcCollection> {
  const href = `${project.base}/collections/${enc(entry.id)}`;
  const { layer } = entry;
  const doc: OgcCollection = {
    id: entry.id,
    title: layer.title ?? layer.name,
    description: `Layer ${layer.name} of ${entry.path}, ${layer.feature_count} features, ${layer.geometry_type}${
      layer.crs ? ` in ${layer.crs}` : ''
    }`,
    itemType: 'feature',
    extent: { spatial: { bbox: layer.extent_4326 ? [layer.extent_4326] : [], crs: CRS84 } },
    crs: entry.crs,
    storageCrs: entry.storageCrs,
    links: [
      ...selfLinks(href, format),
      link(`${href}/items?f=json`, 'items', GEOJSON, 'The features as GeoJSON'),
      link(`${href}/items?f=html`, 'items', HTML, 'The features as HTML'),
    ],
  };
  const column = dateColumn(layer);
  if (column) {
    const key = `${entry.file.checksum}/${layer.name}/${column}`;
    let range = dateRanges.get(key);
    if (!range) {
      range = await runDateRange(
        ctx,
        {
          lane: 'interactive',
          verdictKey: `${key}/dates`,
          tooHeavy: LAYER_TOO_COMPLEX,
          owner: project.owner,
        },
        { file: entry.file.path, layer: layer.name, column },
      );
      dateRanges.set(key, range);
    }
    if (range[0] !== null || range[1] !== null) {
      doc.extent.temporal = { interval: [[rfc3339(range[0]), rfc3339(range[1])]], trs: GREGORIAN };
    }
  }
  return doc;
}

export async function collections(
  ctx: AppContext,
  project: OgcProject,
  format: 'json' | 'html',
): Promise<OgcCollections> {
  const docs: OgcCollection[] = [];
  for (const entry of project.layers) docs.push(await collection(ctx, project, entry, format));
  return { collections: docs, links: selfLinks(`${project.base}/collections`, format) };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})?$/;

/** `datetime`: an instant, or an interval `start/end` with `..` (or nothing) for open ends. */
export function parseDatetime(text: string, column: string): DatetimeFilter {
  const valid = (part: string) => DATE.test(part) || DATE_TIME.test(part);
  const parts = text.split('/');
  if (parts.length === 1) {
    if (!valid(text)) throw badRequest(invalidParameter('datetime'));
    return { column, start: text, end: text, endIsDay: DATE.test(text) };
  }
  if (parts.length !== 2) throw badRequest(invalidParameter('datetime'));
  const [start, end] = parts.map((part) => (part === '..' || part === '' ? null : part)) as [
    string | null,
    string | null,
  ];
  if ((start !== null && !valid(start)) || (end !== null && !valid(end))) {
    throw badRequest(invalidParameter('datetime'));
  }
  if (start === null && end === null) throw badRequest(invalidParameter('datetime'));
  return { column, start, end, endIsDay: end !== null && DATE.test(end) };
}

/** A CRS parameter of the collection, or the 400. */
function offeredCrs(entry: OgcLayer, value: string | undefined, name: string): OutputCrs {
  if (value === undefined) return 'CRS84';
  const uri = normaliseCrs(value);
  if (uri === null) throw badRequest(invalidParameter(name));
  if (!entry.crs.includes(uri)) throw badRequest(UNSUPPORTED_CRS);
  return uri === CRS84 ? 'CRS84' : 'own';
}

/** The URI of an output CRS of the collection. */
export function crsOf(entry: OgcLayer, crs: OutputCrs): string {
  return crs === 'CRS84' ? CRS84 : entry.crs[1]!;
}

const ITEM_PARAMETERS = new Set(['f', 'limit', 'bbox', 'bbox-crs', 'crs', 'datetime', 'cursor']);

/** The sandbox request of an items query (400 for what the collection does not take). */
export function itemsRequest(
  entry: OgcLayer,
  query: OgcItemsQuery,
): ItemsRequest & { filtered: boolean } {
  const properties: ItemsRequest['properties'] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw badRequest(`Parameter ${key} is given more than once`);
    if (ITEM_PARAMETERS.has(key)) continue;
    const column = entry.layer.columns.find((c) => c.name === key);
    if (!column || column.type === 'blob') throw badRequest(unknownParameter(key));
    const text = String(raw);
    let value: string | number = text;
    if (column.type === 'integer' || column.type === 'double') {
      value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value)) throw badRequest(invalidParameter(key));
    } else if (column.type === 'boolean') {
      if (!/^(true|false|1|0)$/i.test(text)) throw badRequest(invalidParameter(key));
      value = /^(true|1)$/i.test(text) ? 1 : 0;
    }
    properties.push({ column: column.name, value });
  }
  let bbox: ItemsRequest['bbox'] = null;
  if (query.bbox !== undefined) {
    const numbers = query.bbox.split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
    if ((numbers.length !== 4 && numbers.length !== 6) || !numbers.every(Number.isFinite)) {
      throw badRequest(invalidParameter('bbox'));
    }
    const box =
      numbers.length === 6 ? [numbers[0]!, numbers[1]!, numbers[3]!, numbers[4]!] : numbers;
    if (box[0]! > box[2]! || box[1]! > box[3]!) throw badRequest(invalidParameter('bbox'));
    bbox = { box, crs: offeredCrs(entry, query['bbox-crs'], 'bbox-crs') };
  } else if (query['bbox-crs'] !== undefined) {
    offeredCrs(entry, query['bbox-crs'], 'bbox-crs');
  }
  const column = dateColumn(entry.layer);
  // A collection without a date column has no time: `datetime` does not filter it.
  const datetime =
    query.datetime !== undefined && column ? parseDatetime(query.datetime, column) : null;
  if (query.datetime !== undefined && !column) parseDatetime(query.datetime, '');
  return {
    file: entry.file.path,
    layer: entry.layer.name,
    limit: Math.min(query.limit ?? OGC_DEFAULT_LIMIT, OGC_MAX_LIMIT),
    after: query.cursor === undefined ? null : Number(query.cursor),
    bbox,
    datetime,
    properties,
    crs: offeredCrs(entry, query.crs, 'crs'),
    filtered: bbox !== null || datetime !== null || properties.length > 0,
  };
}

/** A query string of the items query without `f` and `cursor`, for links. */
function linkQuery(query: OgcItemsQuery, extra: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'f' || key === 'cursor' || value === undefined) continue;
    params.set(key, String(value));
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

export interface ItemsAnswer {
  /** The FeatureCollection as GeoJSON text. */
  body: string;
  features: string;
  returned: number;
  next: string | null;
  first: string;
  crs: string;
}

export async function readItemsPage(
  ctx: AppContext,
  project: OgcProject,
  entry: OgcLayer,
  query: OgcItemsQuery,
  format: 'json' | 'html',
): Promise<ItemsAnswer> {
  const { filtered, ...request } = itemsRequest(entry, query);
  const page = await runItems(
    ctx,
    {
      lane: 'interactive',
      verdictKey: `${entry.file.checksum}/${entry.layer.name}/ogc-items?${JSON.stringify(request)}`,
      tooHeavy: LAYER_TOO_COMPLEX,
      owner: project.owner,
    },
    request,
  );
  const href = `${project.base}/collections/${enc(entry.id)}/items`;
  const f = format === 'json' ? 'json' : 'html';
  const next =
    page.next === null ? null : `${href}?${linkQuery(query, { f, cursor: String(page.next) })}`;
  const links: OgcLink[] = [
    link(
      `${href}?${linkQuery(query, { f: 'json', ...(query.cursor ? { cursor: query.cursor } : {}) })}`,
      format === 'json' ? 'self' : 'alternate',
      GEOJSON,
      'This page as GeoJSON',
    ),
    link(
      `${href}?${linkQuery(query, { f: 'html', ...(query.cursor ? { cursor: query.cursor } : {}) })}`,
      format === 'html' ? 'self' : 'alternate',
      HTML,
      'This page as HTML',
    ),
    link(
      `${project.base}/collections/${enc(entry.id)}?f=json`,
      'collection',
      JSON_TYPE,
      'The collection',
    ),
  ];
  if (page.next !== null) {
    links.push(
      link(
        `${href}?${linkQuery(query, { f: 'json', cursor: String(page.next) })}`,
        'next',
        GEOJSON,
        'Next page',
      ),
    );
  }
  const matched = filtered ? '' : `,"numberMatched":${entry.layer.feature_count}`;
  const body = `{"type":"FeatureCollection","features":[${page.features}]${matched},"numberReturned":${page.returned},"timeStamp":${JSON.stringify(
    new Date(ctx.now()).toISOString(),
  )},"links":${JSON.stringify(links)}}`;
  return {
    body,
    features: page.features,
    returned: page.returned,
    next,
    first: `${href}?${linkQuery(query, { f })}`,
    crs: crsOf(entry, request.crs),
  };
}

export async function readOneItem(
  ctx: AppContext,
  project: OgcProject,
  entry: OgcLayer,
  fid: number,
  crsParam: string | undefined,
  format: 'json' | 'html',
): Promise<{ body: string; crs: string }> {
  const crs = offeredCrs(entry, crsParam, 'crs');
  const feature = await runItem(
    ctx,
    {
      lane: 'interactive',
      verdictKey: `${entry.file.checksum}/${entry.layer.name}/ogc-item/${fid}/${crs}`,
      tooHeavy: LAYER_TOO_COMPLEX,
      owner: project.owner,
    },
    { file: entry.file.path, layer: entry.layer.name, fid, crs },
  );
  const href = `${project.base}/collections/${enc(entry.id)}/items/${fid}`;
  const links = [
    ...selfLinks(href, format, GEOJSON),
    link(
      `${project.base}/collections/${enc(entry.id)}?f=json`,
      'collection',
      JSON_TYPE,
      'The collection',
    ),
  ];
  return {
    body: `${feature.slice(0, -1)},"links":${JSON.stringify(links)}}`,
    crs: crsOf(entry, crs),
  };
}
