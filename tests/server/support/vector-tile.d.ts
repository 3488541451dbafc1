/** @mapbox/vector-tile 1.x has no types: what the map tests read from a tile. */
declare module '@mapbox/vector-tile' {
  export interface VectorTileFeature {
    id: number | undefined;
    type: 1 | 2 | 3;
    extent: number;
    properties: Record<string, unknown>;
    loadGeometry(): { x: number; y: number }[][];
  }
  export interface VectorTileLayer {
    name: string;
    extent: number;
    length: number;
    feature(i: number): VectorTileFeature;
  }
  export class VectorTile {
    constructor(pbf: unknown);
    layers: Record<string, VectorTileLayer>;
  }
}
