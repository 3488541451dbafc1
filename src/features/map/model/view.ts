/** The map view as the `view` search param writes it (`lon,lat,zoom`, see search.ts). */

/** A map view: its center in degrees and its zoom. */
export interface MapView {
  lon: number;
  lat: number;
  zoom: number;
}

/** `lon,lat,zoom` read as numbers, or null when any is missing or out of range. */
export function parseView(text: string | undefined): MapView | null {
  const parts = (text ?? '').split(',');
  if (parts.length !== 3 || parts.some((part) => part.trim() === '')) return null;
  const [lon, lat, zoom] = parts.map(Number) as [number, number, number];
  const valid =
    Math.abs(lon) <= 180 && Math.abs(lat) <= 90 && zoom >= 0 && zoom <= 28 && !isNaN(lon + lat);
  return valid ? { lon, lat, zoom } : null;
}

/** The view as the link writes it (6 decimals: ~10 cm; zoom to 2). */
export const formatView = ({ lon, lat, zoom }: MapView): string =>
  `${+lon.toFixed(6)},${+lat.toFixed(6)},${+zoom.toFixed(2)}`;
