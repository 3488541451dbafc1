/**
 * Exports of one layer of a project's GeoPackage (or SQLite) file at any version (issue 32),
 * with the same permissions as downloads (read access; public projects for anyone; a bearer
 * token in `Authorization` works as everywhere):
 *
 *   GET /app/export/{namespace}/{name}/{layer}?file&version&format&filter&sort&order&fids
 *
 *   file     project path of a .gpkg / .sqlite file (required)
 *   version  `vN`; absent or empty: the latest version
 *   format   geojson | csv | gpkg | kml (required)
 *   filter, sort, order, fids: as the attribute table's rows (schemas/map.ts
 *            MapFeatureQuery): only the rows the table shows, in its order; absent: all rows
 *            in fid order.
 *
 * The answer is the file (200, `Content-Disposition: attachment`), named
 * `<project>-<layer>-v<N>.<ext>`:
 * - geojson: RFC 7946 (`application/geo+json`): a FeatureCollection in WGS 84 lon/lat
 *   (reprojected), polygons wound by the right-hand rule, `id` the fid, no `crs` member.
 * - csv: UTF-8 with a byte-order mark and a header row, CRLF, RFC 4180 quoting
 *   (`text/csv`): `WKT` (the geometry in the layer's own CRS), `X` and `Y` for point layers,
 *   then the fid and every attribute. A text cell that starts with `=`, `+`, `-`, `@`, a tab
 *   or a carriage return gets a leading `'`, so a spreadsheet shows it instead of running it.
 * - gpkg: a GeoPackage holding the layer alone, in its own CRS, with its fids, its columns'
 *   declared types and an R-tree spatial index with GeoPackage's triggers.
 * - kml: KML 2.2 (`application/vnd.google-earth.kml+xml`) in WGS 84, a Schema of the
 *   attributes and one Placemark per feature (text XML-escaped).
 * 400 bad query (unknown column), 403/404 as downloads, 422 when the layer cannot be
 * reprojected (geojson, kml) or the export is too large or too complex.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common';
import { MapFeatureQuerySchema, MapLayerParamsSchema } from './map';

export const EXPORT_FORMATS = ['geojson', 'csv', 'gpkg', 'kml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Extension and Content-Type of each format. */
export const EXPORT_FILE_TYPES: Record<ExportFormat, { extension: string; contentType: string }> = {
  geojson: { extension: 'geojson', contentType: 'application/geo+json' },
  csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  gpkg: { extension: 'gpkg', contentType: 'application/geopackage+sqlite3' },
  kml: { extension: 'kml', contentType: 'application/vnd.google-earth.kml+xml' },
};

export const ExportParamsSchema = MapLayerParamsSchema;
export type ExportParams = Static<typeof ExportParamsSchema>;

const { file, version, sort, order, filter, fids } = MapFeatureQuerySchema.properties;
export const ExportQuerySchema = Type.Object({
  file,
  version,
  format: StringEnum(EXPORT_FORMATS),
  sort,
  order,
  filter,
  fids,
});
export type ExportQuery = Static<typeof ExportQuerySchema>;
