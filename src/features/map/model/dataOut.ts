/**
 * Data out of the Map tab (issue 32), as pure rules: the export formats, the OGC API -
 * Features address for QGIS and GDAL, the share link of a public map, the embed page's
 * address and its iframe snippet (every value escaped for the attribute it lands in), and a
 * view link's address.
 */
import type { ExportFormat } from '@contract/export';
import type { MapSearch } from './search';

/** A label for each export format of the contract (schemas/export.ts), in the menu's order. */
const FORMAT_LABELS: Record<ExportFormat, string> = {
  geojson: 'GeoJSON',
  csv: 'CSV',
  gpkg: 'GeoPackage',
  kml: 'KML',
};
export const EXPORT_FORMATS = (Object.keys(FORMAT_LABELS) as ExportFormat[]).map((format) => ({
  format,
  label: FORMAT_LABELS[format],
}));
export type ExportFormatName = ExportFormat;

const enc = encodeURIComponent;

/** The OGC API - Features landing page of a project at `latest` or `vN`. */
export function ogcAddress(
  origin: string,
  namespace: string,
  name: string,
  version = 'latest',
): string {
  return `${origin}/ogc/${enc(namespace)}/${enc(name)}/${version}`;
}

/** The map's params a link keeps: version, GeoPackage, visible layers and view. */
function linkParams(search: MapSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['version', 'file', 'layers', 'view'] as const) {
    const value = search[key];
    if (value !== undefined) params.set(key, value);
  }
  return params;
}

function withQuery(path: string, params: URLSearchParams): string {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** The Map tab of a public project as shown now (view, layers, version): anyone may open it. */
export function shareMapUrl(
  origin: string,
  namespace: string,
  name: string,
  search: MapSearch,
): string {
  return withQuery(`${origin}/projects/${enc(namespace)}/${enc(name)}/map`, linkParams(search));
}

/** The embed page of a public project's map: the map alone, for other sites' frames. */
export function embedUrl(
  origin: string,
  namespace: string,
  name: string,
  search: MapSearch,
): string {
  return withQuery(`${origin}/embed/${enc(namespace)}/${enc(name)}`, linkParams(search));
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&#39;',
};

/** Text safe inside a double-quoted HTML attribute. */
export function escapeAttribute(text: string): string {
  return text.replace(/[&"<>']/g, (c) => ATTRIBUTE_ESCAPES[c]!);
}

/** The iframe another site pastes to show the map. */
export function embedSnippet(url: string, title: string): string {
  return `<iframe src="${escapeAttribute(url)}" title="${escapeAttribute(title)}" width="100%" height="450" style="border:0" loading="lazy" allowfullscreen></iframe>`;
}

/** The page of a read-only view link. */
export function viewLinkUrl(origin: string, token: string): string {
  return `${origin}/view/${enc(token)}`;
}

/** A date `days` after `from` as an `<input type="date">` value (local time). */
export function dateInDays(from: Date, days: number): string {
  const date = new Date(from.getFullYear(), from.getMonth(), from.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The end of a chosen day (23:59:59.999 local time) as the API's ISO date-time. */
export function endOfDay(date: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}
