/**
 * Editing on the OpenLayers map (issue 34): the queued edits drawn over the server's tiles
 * (dashed, in the colours of a version's changes: added green, changed orange, deleted red),
 * the feature being drawn (its vertices so far), and the geometry being edited, whose vertices
 * can be dragged (Modify) and which can be moved as a whole (Translate), by mouse or finger.
 * Geometries come and go as GeoJSON in EPSG:4326; the map works in EPSG:3857.
 */
import Collection from 'ol/Collection';
import { getCenter } from 'ol/extent';
import Feature from 'ol/Feature';
import GeoJSON from 'ol/format/GeoJSON';
import type { Geometry as OlGeometry } from 'ol/geom';
import LineString from 'ol/geom/LineString';
import Point from 'ol/geom/Point';
import Polygon from 'ol/geom/Polygon';
import Modify from 'ol/interaction/Modify';
import Translate from 'ol/interaction/Translate';
import VectorLayer from 'ol/layer/Vector';
import VectorTileLayer from 'ol/layer/VectorTile';
import RenderFeature, { toGeometry } from 'ol/render/Feature';
import type OlMap from 'ol/Map';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import type { EditGeometry } from '@/db/editQueue';
import type { Coordinate, DrawKind } from '../model/drawing';
import { recentreAt, type Box } from '../model/sheet';
import type { PendingFeature, PendingKind } from '../model/pending';
import { PICKABLE } from './pickable';

export const PENDING_COLOURS: Record<PendingKind, string> = {
  added: '#2f9e44',
  changed: '#f08c00',
  deleted: '#e03131',
};
const EDIT_COLOUR = '#1971c2';

const format = new GeoJSON();
const projection = { dataProjection: 'EPSG:4326', featureProjection: 'EPSG:3857' };

/** A GeoJSON geometry (EPSG:4326) as an OpenLayers geometry on the map (EPSG:3857). */
export function toMapGeometry(geometry: EditGeometry): OlGeometry | null {
  try {
    return format.readGeometry(geometry, projection) as OlGeometry;
  } catch {
    return null;
  }
}

/** An OpenLayers geometry on the map as GeoJSON in EPSG:4326 (6 decimals: ~0.1 m). */
export function fromMapGeometry(geometry: OlGeometry): EditGeometry {
  return format.writeGeometryObject(geometry, { ...projection, decimals: 7 }) as EditGeometry;
}

function dashedStyle(colour: string): Style {
  const stroke = new Stroke({ color: colour, width: 3, lineDash: [8, 6] });
  return new Style({
    image: new Circle({
      radius: 8,
      fill: new Fill({ color: `${colour}cc` }),
      stroke: new Stroke({ color: '#ffffff', width: 2, lineDash: [3, 2] }),
    }),
    stroke,
    fill: new Fill({ color: `${colour}33` }),
  });
}

const pendingStyles: Record<PendingKind, Style> = {
  added: dashedStyle(PENDING_COLOURS.added),
  changed: dashedStyle(PENDING_COLOURS.changed),
  deleted: dashedStyle(PENDING_COLOURS.deleted),
};

const vertexStyle = new Style({
  image: new Circle({
    radius: 6,
    fill: new Fill({ color: '#ffffff' }),
    stroke: new Stroke({ color: EDIT_COLOUR, width: 2 }),
  }),
});

const editStyle = [
  new Style({
    stroke: new Stroke({ color: EDIT_COLOUR, width: 3 }),
    fill: new Fill({ color: 'rgba(25, 113, 194, 0.2)' }),
    image: new Circle({
      radius: 9,
      fill: new Fill({ color: EDIT_COLOUR }),
      stroke: new Stroke({ color: '#ffffff', width: 2 }),
    }),
  }),
];

export class MapEditing {
  private readonly pendingSource = new VectorSource();
  private readonly sketchSource = new VectorSource();
  private readonly editSource = new VectorSource();
  private readonly layers: VectorLayer[];
  private interactions: (Modify | Translate)[] = [];

  constructor(private readonly map: OlMap) {
    const pending = new VectorLayer({
      source: this.pendingSource,
      zIndex: 900,
      style: (feature) => pendingStyles[feature.get('pending') as PendingKind],
    });
    pending.set(PICKABLE, true);
    const sketch = new VectorLayer({ source: this.sketchSource, zIndex: 1100 });
    const edit = new VectorLayer({ source: this.editSource, zIndex: 1101, style: editStyle });
    this.layers = [pending, sketch, edit];
    for (const layer of this.layers) map.addLayer(layer);
  }

  /** Draws the queued edits (every feature with a known geometry). */
  setPending(
    features: Iterable<PendingFeature>,
    hide?: (feature: PendingFeature) => boolean,
  ): void {
    this.pendingSource.clear();
    const drawn: Feature[] = [];
    for (const pending of features) {
      if (!pending.geometry || hide?.(pending)) continue;
      const geometry = toMapGeometry(pending.geometry);
      if (!geometry) continue;
      // No id: a click reads the fid from the properties (ids are unique per source, fids
      // per layer only).
      const feature = new Feature({ geometry });
      feature.setProperties({ layer: pending.layer, fid: pending.fid, pending: pending.kind });
      drawn.push(feature);
    }
    this.pendingSource.addFeatures(drawn);
  }

  /** Shows the vertices tapped so far of a feature being drawn (EPSG:3857). */
  setSketch(kind: DrawKind | null, vertices: readonly Coordinate[]): void {
    this.sketchSource.clear();
    if (!kind || vertices.length === 0) return;
    const points = vertices.map(([x, y]) => [x, y]);
    const features: Feature[] = points.map((point) => {
      const feature = new Feature({ geometry: new Point(point) });
      feature.setStyle(vertexStyle);
      return feature;
    });
    if (kind !== 'point' && points.length > 1) {
      const shape =
        kind === 'polygon' && points.length > 2
          ? new Polygon([[...points, points[0] as number[]]])
          : new LineString(points);
      const feature = new Feature({ geometry: shape });
      feature.setStyle(editStyle);
      features.unshift(feature);
    }
    this.sketchSource.addFeatures(features);
  }

  /**
   * Makes `geometry` editable (null: nothing is): its vertices can be dragged and the whole
   * moved; `onChange` hears the geometry after each drag, as GeoJSON in EPSG:4326.
   */
  editGeometry(geometry: EditGeometry | null, onChange: (geometry: EditGeometry) => void): void {
    this.stopEditing();
    if (!geometry) return;
    const olGeometry = toMapGeometry(geometry);
    if (!olGeometry) return;
    const feature = new Feature({ geometry: olGeometry });
    this.editSource.addFeature(feature);
    const features = new Collection([feature]);
    const report = () => {
      const changed = feature.getGeometry();
      if (changed) onChange(fromMapGeometry(changed));
    };
    const translate = new Translate({ features, hitTolerance: 12 });
    translate.on('translateend', report);
    const modify = new Modify({ features, pixelTolerance: 14 });
    modify.on('modifyend', report);
    // The last added acts first: a press near a vertex drags it, elsewhere on the feature
    // moves the whole.
    this.interactions = [translate, modify];
    for (const interaction of this.interactions) this.map.addInteraction(interaction);
  }

  /** Replaces the geometry being edited (moved to the map's centre by keyboard, say). */
  replaceEdited(geometry: EditGeometry): void {
    const olGeometry = toMapGeometry(geometry);
    const feature = this.editSource.getFeatures()[0];
    if (olGeometry && feature) feature.setGeometry(olGeometry);
  }

  /**
   * Moves the geometry being edited so the middle of its extent is at the map's centre (the
   * keyboard's way to move it: the arrow keys move the map under the centre mark). Answers
   * the moved geometry, or null when nothing is edited.
   */
  moveEditedToCentre(): EditGeometry | null {
    const feature = this.editSource.getFeatures()[0];
    const geometry = feature?.getGeometry();
    const centre = this.map.getView().getCenter();
    if (!feature || !geometry || !centre) return null;
    const [minX = 0, minY = 0, maxX = 0, maxY = 0] = geometry.getExtent();
    const moved = geometry.clone();
    moved.translate((centre[0] ?? 0) - (minX + maxX) / 2, (centre[1] ?? 0) - (minY + maxY) / 2);
    feature.setGeometry(moved);
    return fromMapGeometry(moved);
  }

  /**
   * Recentres the map on the geometry being edited when its centre is not well inside `part`
   * (the map's pixels the form leaves uncovered: model/sheet.ts), so the surveyor sees and can
   * reach what they edit; the map stays where it is otherwise.
   */
  keepEditedInView(part: Box): void {
    const geometry = this.editSource.getFeatures()[0]?.getGeometry();
    const size = this.map.getSize();
    if (!geometry || !size) return;
    const centre = getCenter(geometry.getExtent());
    const pixel = this.map.getPixelFromCoordinate(centre) as number[] | null;
    if (!pixel) return;
    const at = recentreAt([pixel[0] ?? 0, pixel[1] ?? 0], part);
    if (at) this.map.getView().centerOn(centre, size, at);
  }

  /**
   * A feature's geometry as the server's tiles drew it (EPSG:4326), when its own is not at hand
   * (offline, a feature known from an attribute page only); null when no tile in view has it.
   */
  tileGeometry(layer: string, fid: number): EditGeometry | null {
    const extent = this.map.getView().calculateExtent(this.map.getSize());
    for (const tiles of this.map.getLayers().getArray()) {
      if (!(tiles instanceof VectorTileLayer)) continue;
      const found = tiles
        .getFeaturesInExtent(extent)
        .find((feature) => feature.get('layer') === layer && Number(feature.getId()) === fid);
      if (found) {
        const geometry = found instanceof RenderFeature ? toGeometry(found) : found.getGeometry();
        if (geometry) return fromMapGeometry(geometry);
      }
    }
    return null;
  }

  stopEditing(): void {
    for (const interaction of this.interactions) this.map.removeInteraction(interaction);
    this.interactions = [];
    this.editSource.clear();
  }

  dispose(): void {
    this.stopEditing();
    for (const layer of this.layers) this.map.removeLayer(layer);
  }
}
