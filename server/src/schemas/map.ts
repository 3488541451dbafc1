/**
 * The map of a project's GeoPackage (issue 19): layers, vector tiles, attribute rows and a
 * version's changes, for one file at one version. Same permissions as downloads (read
 * access; public projects for anonymous visitors). Every route takes the file and version in
 * the query, as GET /v1/project/raw does:
 *
 *   file     project path of a .gpkg / .sqlite file (required)
 *   version  `vN`; absent or empty: the latest version
 *   link     a read-only view link's token (schemas/view-links.ts): read access to its
 *            project while it lasts (layers, tiles, features), 404 once it has ended
 *
 * Answers for an explicit version are keyed by the file's content (its SHA-1, the ETag):
 * versions sharing bytes share them. They carry `ETag` and `Cache-Control: private,
 * max-age=300` (explicit version) or `private, no-cache` (latest); `If-None-Match` gives 304.
 *
 * - GET /app/map/{namespace}/{name}/layers?file&version → MapLayers
 *     The file's feature layers (gpkg_contents data_type 'features' with a
 *     gpkg_geometry_columns row, or SQLite tables with a geometry column).
 * - GET /app/map/{namespace}/{name}/tiles/{layer}/{z}/{x}/{y}.mvt?file&version
 *     A Mapbox Vector Tile (v2, extent 4096) in EPSG:3857, z 0-24, tile scheme XYZ (y down),
 *     Content-Type application/vnd.mapbox-vector-tile; 204 (no body) when the tile is empty.
 *     One MVT layer named as the table; every feature's id is its fid, and it has the
 *     property `fid` too. Point layers are thinned below the zoom where every point has its
 *     own 4×4-pixel cell (at most one point per cell), so a tile holds at most 4096 points.
 *     Read it with ol/format/MVT (`idProperty: 'fid'` or the feature id).
 * - GET /app/map/{namespace}/{name}/features/{layer}?file&version&page&per_page&sort&order&filter&fids
 *     → MapFeaturePage: the attribute rows, `per_page` (1-100, default 50) per page, sorted by
 *     any attribute column (`sort`, default the fid; `order` asc|desc), filtered by `filter`
 *     (rows where any text or number column contains the text, case-insensitive) and/or by
 *     `fids` (comma-separated fids, at most 1000: e.g. a changeset's inserted + updated).
 * - GET /app/map/{namespace}/{name}/features/{layer}/{fid}?file&version → MapFeature
 *     With `geometry`: the full geometry as GeoJSON in EPSG:4326 (for editing it).
 * - GET /app/map/{namespace}/{name}/changes?file&version → MapChanges
 *     The row-level changes of `version` (required here) for the file, per layer: fids
 *     inserted, updated and deleted, and the deleted features (they are not in the version)
 *     with their geometry as GeoJSON in EPSG:4326, to be drawn. 202 (ChangesetPending of
 *     history.ts) while the changes are computed; 404 when the version did not update the file;
 *     422 when its changes cannot be calculated.
 *
 * The basemap (BASEMAP_URL, BASEMAP_ATTRIBUTION) is in GET /config as `basemap`
 * (schemas/instance.ts): absent when none is configured.
 *
 * Extents are `[minx, miny, maxx, maxy]`.
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import {
  NamespaceNameParamsSchema,
  NullableString,
  StringEnum,
  VersionNameSchema,
  VersionParamSchema,
} from './common';
import { ViewLinkTokenSchema } from './view-links';
import { CHANGESET_COLUMN_TYPES, type ChangesetColumnType } from './changesets';

/** Longest layer (table) name accepted in a path. */
export const MAX_LAYER_NAME = 255;
/** Most fids in the `fids` filter. */
export const MAX_FID_FILTER = 1000;
/** Attribute rows per page by default, and at most. */
export const DEFAULT_FEATURES_PER_PAGE = 50;
export const MAX_FEATURES_PER_PAGE = 100;
/** Deepest zoom served. */
export const MAX_TILE_ZOOM = 24;
/** MVT extent of a tile (units across). */
export const TILE_EXTENT = 4096;
/** Content-Type of a tile. */
export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile';

/** `[minx, miny, maxx, maxy]`. */
export const ExtentSchema = Type.Array(Type.Number(), { minItems: 4, maxItems: 4 });
export type Extent = Static<typeof ExtentSchema>;
const NullableExtent = (): TUnsafe<Extent | null> =>
  Type.Unsafe<Extent | null>({
    type: ['array', 'null'],
    items: { type: 'number' },
    minItems: 4,
    maxItems: 4,
  });

/** The query every map route takes. */
export const MapFileQuerySchema = Type.Object({
  file: Type.String({ minLength: 1 }),
  version: Type.Optional(VersionParamSchema),
  link: Type.Optional(ViewLinkTokenSchema),
});
export type MapFileQuery = Static<typeof MapFileQuerySchema>;

/** An attribute's kind, as the changesets name them (changesets.ts), the geometry aside. */
export const MAP_COLUMN_TYPES = CHANGESET_COLUMN_TYPES.filter(
  (type): type is Exclude<ChangesetColumnType, 'geometry'> => type !== 'geometry',
);
export const MapColumnSchema = Type.Object({
  name: Type.String(),
  type: StringEnum(MAP_COLUMN_TYPES),
});
export type MapColumn = Static<typeof MapColumnSchema>;

export const MapLayerSchema = Type.Object({
  /** The table name: the `{layer}` of the other routes and the MVT layer's name. */
  name: Type.String(),
  /** gpkg_contents.identifier (a human title), or null. */
  title: NullableString(),
  geometry_column: Type.String(),
  /** POINT, MULTIPOLYGON, GEOMETRY, … (gpkg_geometry_columns.geometry_type_name). */
  geometry_type: Type.String(),
  /** The feature id column (the integer primary key). */
  fid_column: Type.String(),
  srs_id: Type.Integer(),
  /** `EPSG:2180` (organization:id), or null when the file does not say. */
  crs: NullableString(),
  /** gpkg_spatial_ref_sys.srs_name, or null. */
  crs_name: NullableString(),
  /** Whether the server can reproject the layer (a known CRS definition): tiles need it. */
  drawable: Type.Boolean(),
  feature_count: Type.Integer(),
  /** The features' extent in the layer's CRS; null when the layer has no geometry. */
  extent: NullableExtent(),
  /** The same in EPSG:4326 (lon/lat) and EPSG:3857 (for fitting the view); null when not drawable. */
  extent_4326: NullableExtent(),
  extent_3857: NullableExtent(),
  /** The attribute columns (all but the fid and the geometry), in table order. */
  columns: Type.Array(MapColumnSchema),
});
export type MapLayer = Static<typeof MapLayerSchema>;

/** GET …/layers. */
export const MapLayersSchema = Type.Object({
  file: Type.String(),
  /** The version shown (`vN`), resolved when the query named none. */
  version: Type.String(),
  /** SHA-1 of the file's bytes: the key of every cached answer about it. */
  checksum: Type.String(),
  layers: Type.Array(MapLayerSchema),
});
export type MapLayers = Static<typeof MapLayersSchema>;

/** An attribute value: blobs are shown as `BLOB (N bytes)`, integers beyond 2^53 as text. */
export type MapValue = string | number | boolean | null;
export const MapValueSchema = Type.Unsafe<MapValue>({
  type: ['string', 'number', 'boolean', 'null'],
});

export const MapFeatureSchema = Type.Object({
  fid: Type.Integer(),
  /** POINT, POLYGON, …; null when the feature has no (or an unreadable) geometry. */
  geometry_type: NullableString(),
  /** The feature's extent in EPSG:3857 (zoom to it); null without a drawable geometry. */
  extent_3857: NullableExtent(),
  /** Column name → value, for every attribute column. */
  properties: Type.Unsafe<Record<string, MapValue>>({
    type: 'object',
    additionalProperties: MapValueSchema,
  }),
  /**
   * The single-feature route only: the geometry as GeoJSON in EPSG:4326 (curves as their
   * vertices); null without a drawable geometry.
   */
  geometry: Type.Optional(
    Type.Unsafe<GeoJsonGeometry | null>({ type: ['object', 'null'], additionalProperties: true }),
  ),
});
export type MapFeature = Static<typeof MapFeatureSchema>;

/** GET …/features/{layer}. */
export const MapFeaturePageSchema = Type.Object({
  /** Rows matching the filters (all pages). */
  count: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
  columns: Type.Array(MapColumnSchema),
  features: Type.Array(MapFeatureSchema),
});
export type MapFeaturePage = Static<typeof MapFeaturePageSchema>;

export const MapLayerParamsSchema = Type.Object({
  ...NamespaceNameParamsSchema.properties,
  layer: Type.String({ minLength: 1, maxLength: MAX_LAYER_NAME }),
});
export type MapLayerParams = Static<typeof MapLayerParamsSchema>;

export const MapFeatureParamsSchema = Type.Object({
  ...MapLayerParamsSchema.properties,
  fid: Type.String({ pattern: '^-?\\d{1,16}$' }),
});
export type MapFeatureParams = Static<typeof MapFeatureParamsSchema>;

const tileCoordinate = Type.String({ pattern: '^\\d{1,8}$' });
export const MapTileParamsSchema = Type.Object({
  ...MapLayerParamsSchema.properties,
  z: tileCoordinate,
  x: tileCoordinate,
  y: tileCoordinate,
});
export type MapTileParams = Static<typeof MapTileParamsSchema>;

export const MapFeatureQuerySchema = Type.Object({
  ...MapFileQuerySchema.properties,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FEATURES_PER_PAGE })),
  /** An attribute column, or the fid column. Default: the fid. */
  sort: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_LAYER_NAME })),
  order: Type.Optional(StringEnum(['asc', 'desc'])),
  /** Text searched in every text and number column (case-insensitive, contains). */
  filter: Type.Optional(Type.String({ maxLength: 200 })),
  /** Comma-separated fids (at most MAX_FID_FILTER). */
  fids: Type.Optional(Type.String({ pattern: '^-?\\d{1,16}(,-?\\d{1,16})*$', maxLength: 20_000 })),
});
export type MapFeatureQuery = Static<typeof MapFeatureQuerySchema>;

/** A GeoJSON geometry (RFC 7946, EPSG:4326). */
export interface GeoJsonGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: GeoJsonGeometry[];
}
export const GeoJsonGeometrySchema = Type.Unsafe<GeoJsonGeometry>({
  type: 'object',
  additionalProperties: true,
});

export const MapDeletedFeatureSchema = Type.Object({
  fid: Type.Integer(),
  /** Its geometry in the version before, as GeoJSON in EPSG:4326; null when it had none. */
  geometry: Type.Unsafe<GeoJsonGeometry | null>({
    type: ['object', 'null'],
    additionalProperties: true,
  }),
  /** Its attributes in the version before. */
  properties: MapFeatureSchema.properties.properties,
});
export type MapDeletedFeature = Static<typeof MapDeletedFeatureSchema>;

export const MapLayerChangesSchema = Type.Object({
  /** The table (a layer of …/layers, or of the version before for a removed table). */
  layer: Type.String(),
  inserted: Type.Array(Type.Integer()),
  updated: Type.Array(Type.Integer()),
  deleted: Type.Array(Type.Integer()),
  /** The deleted features with their former geometry and attributes. */
  deleted_features: Type.Array(MapDeletedFeatureSchema),
});
export type MapLayerChanges = Static<typeof MapLayerChangesSchema>;

/** GET …/changes. */
export const MapChangesSchema = Type.Object({
  file: Type.String(),
  version: Type.String(),
  /** Changed rows of non-layer tables are left out; only feature layers are listed. */
  layers: Type.Array(MapLayerChangesSchema),
  /** The version changed more rows than the server keeps (100,000): the lists are partial. */
  truncated: Type.Boolean(),
});
export type MapChanges = Static<typeof MapChangesSchema>;

/** The query of …/changes: the version is required. */
export const MapChangesQuerySchema = Type.Object({
  file: Type.String({ minLength: 1 }),
  version: VersionNameSchema,
});
export type MapChangesQuery = Static<typeof MapChangesQuerySchema>;

/** A basemap: XYZ URL template (`{z}`, `{x}`, `{y}`, optional `{a-c}`) and its attribution. */
export const BasemapSchema = Type.Object({
  url: Type.String(),
  attribution: Type.String(),
});
export type Basemap = Static<typeof BasemapSchema>;
