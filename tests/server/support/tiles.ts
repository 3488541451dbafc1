/** Where lon/lat falls in the XYZ tile grid (Web Mercator, y down), for the map's tests. */

/** The tile x/y containing lon/lat at zoom z, and the position in it (0-4096, MVT units). */
export function tileOf(
  lon: number,
  lat: number,
  z: number,
): { x: number; y: number; px: number; py: number } {
  const n = 2 ** z;
  const ux = ((lon + 180) / 360) * n;
  const rad = (lat * Math.PI) / 180;
  const uy = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n;
  const x = Math.floor(ux);
  const y = Math.floor(uy);
  return { x, y, px: (ux - x) * 4096, py: (uy - y) * 4096 };
}
