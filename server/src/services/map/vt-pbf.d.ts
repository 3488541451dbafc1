/** vt-pbf 3 has no types: the one function used (encoding geojson-vt tiles as MVT). */
declare module 'vt-pbf' {
  export interface VtFeature {
    id?: number | string;
    type: 1 | 2 | 3;
    /** Points: [[x, y], …]; lines and polygons: rings of [x, y]. */
    geometry: [number, number][] | [number, number][][];
    tags: Record<string, unknown> | null;
  }
  export function fromGeojsonVt(
    layers: Record<string, { features: VtFeature[] }>,
    options?: { version?: number; extent?: number },
  ): Uint8Array;
}
