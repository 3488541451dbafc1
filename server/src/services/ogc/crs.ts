/**
 * CRSs of OGC API - Features (Part 2, by reference): URIs, the axis order they put
 * coordinates in, and the `crs` / `bbox-crs` parameters. CRS84 is lon/lat. An EPSG CRS is
 * served in its own axis order: north first for EPSG:4326 and for any CRS whose definition
 * names a north (or south) axis first (EPSG:2180's northing, easting); GeoPackages store x
 * east, y north whatever the definition says.
 */
import { CRS84 } from '../../schemas/ogc';

const EPSG_URI = /^http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/(\d{1,9})$/;

/** `http://www.opengis.net/def/crs/EPSG/0/2180` of `EPSG:2180`; null for other codes. */
export function crsUri(code: string | null): string | null {
  const match = code ? /^EPSG:(\d{1,9})$/i.exec(code) : null;
  return match ? `http://www.opengis.net/def/crs/EPSG/0/${match[1]}` : null;
}

/**
 * The URI a `crs` / `bbox-crs` value names: the URI itself, its safe CURIE (`[EPSG:2180]`),
 * `EPSG:2180`, the URN (`urn:ogc:def:crs:EPSG::2180`), CRS84's own spellings; null when it
 * names none of these.
 */
export function normaliseCrs(value: string): string | null {
  const text = value.trim();
  if (
    text === CRS84 ||
    /^\[?OGC:CRS84\]?$/i.test(text) ||
    /^urn:ogc:def:crs:OGC:1\.3:CRS84$/i.test(text)
  ) {
    return CRS84;
  }
  if (EPSG_URI.test(text)) return text;
  const code =
    /^\[?EPSG:(\d{1,9})\]?$/i.exec(text) ?? /^urn:ogc:def:crs:EPSG:[^:]*:(\d{1,9})$/i.exec(text);
  return code ? `http://www.opengis.net/def/crs/EPSG/0/${code[1]}` : null;
}

/** Whether a CRS puts north (or south) first: EPSG:4326, or a definition's first AXIS. */
export function northFirst(code: string | null, definition: string | undefined): boolean {
  if (code?.toUpperCase() === 'EPSG:4326') return true;
  const axis = definition
    ? /AXIS\s*\[\s*"[^"]*"\s*,\s*(NORTH|SOUTH|EAST|WEST)\b/i.exec(definition)
    : null;
  return axis !== null && /^(north|south)$/i.test(axis[1]!);
}
