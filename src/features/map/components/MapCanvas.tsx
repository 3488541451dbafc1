/**
 * The OpenLayers map (issue 19; docs/decisions/0094-map-openlayers.md): canvas 2D, which
 * draws in headless Chromium and on tablets without WebGL. One vector tile layer per visible
 * GeoPackage layer (the server's MVT tiles in EPSG:3857, each feature's id its fid), the
 * deleted features of a changeset drawn from their former geometry, and the configured
 * basemap under them. Pinch zoom, pan and keyboard pan/zoom are OpenLayers' defaults, active
 * without the focus (see `createMap`); the map owns every touch gesture on it. The map
 * element is focusable, and while it has the focus a mark shows its centre, where Enter
 * picks a feature as a click would (keyboardPick.ts). `aria-busy` is true while tiles load.
 */
import 'ol/ol.css';
import { Box } from '@mantine/core';
import type { Basemap, Extent, MapDeletedFeature } from '@contract/map';
import GeoJSON from 'ol/format/GeoJSON';
import TileLayer from 'ol/layer/Tile';
import VectorLayer from 'ol/layer/Vector';
import type VectorTileLayer from 'ol/layer/VectorTile';
import type OlMap from 'ol/Map';
import { unByKey } from 'ol/Observable';
import { fromLonLat, toLonLat } from 'ol/proj';
import VectorSource from 'ol/source/Vector';
import XYZ from 'ol/source/XYZ';
import View from 'ol/View';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { PICKABLE } from '@/features/capture';
import { postBasemapToServiceWorker } from '@/offline/serviceWorkerBasemap';
import { CHANGE_COLOURS, featureColour } from '../model/colours';
import type { ChangeLookup } from '../model/changes';
import { drawOrder, type CanvasLayer } from '../model/layers';
import { FIRST_FEATURES_MARK } from '../model/marks';
import { featuresAt } from './hitTest';
import { CentreMark, focusVisible, listenForKeyboardPicks } from './keyboardPick';
import type { MapView } from '../model/view';
import { styleOf } from './styles';
import { createMap, FIT_MAX_ZOOM, FIT_PADDING, MAX_ZOOM, tileLayer, tileSource } from './mapSetup';

/** What a click chose: a feature of a layer, and for a deleted one its former attributes. */
export interface Selection {
  layer: string;
  fid: number;
  deleted?: MapDeletedFeature;
  /** The other features under the click, topmost first (issue 31: offered to choose from). */
  others?: Selection[];
}

export interface MapCanvasProps {
  layers: readonly CanvasLayer[];
  /** Where the data is (EPSG:3857), fitted on open when the link names no view. */
  dataExtent: Extent | null;
  view: MapView | null;
  changes: ChangeLookup | null;
  deleted: ReadonlyArray<{ layer: string; feature: MapDeletedFeature }>;
  basemap: Basemap | null;
  /** Fits the view to this extent (EPSG:3857) each time the object changes. */
  zoomTo: Extent | null;
  onViewChange: (view: MapView) => void;
  onSelect: (selection: Selection | null) => void;
  /**
   * Field capture (issue 34): the server's features not to draw (a queued edit draws them),
   * a tap's use while a feature is drawn (instead of picking; Enter at the centre mark too),
   * and the map itself, for the layers and interactions of editing.
   */
  hidden?: (layer: string, fid: number) => boolean;
  onTap?: ((coordinate: number[]) => void) | null;
  onMap?: (map: OlMap | null) => void;
}

const CONTROL_LABELS = [
  ['.ol-zoom-in', 'Zoom in'],
  ['.ol-zoom-out', 'Zoom out'],
  ['.ol-attribution button', 'Attributions'],
  ['.ol-rotate-reset', 'Reset rotation'],
] as const;

/** How far from a point or line a click still chooses it, in pixels. */
const HIT_TOLERANCE = 6;
/** The same for a tap: a finger is less precise than a mouse. */
const TOUCH_TOLERANCE = 12;
/** The other features under a click offered at most. */
const MAX_OTHERS = 5;
/** The same for Enter at the centre mark (a larger target: the keys move 128 px a press). */
const KEY_TOLERANCE = 12;

/** How long after the map stopped moving its view is written to the link (ms). */
const VIEW_WRITE_DELAY_MS = 150;

function currentView(map: OlMap): MapView | null {
  const view = map.getView();
  const center = view.getCenter();
  const zoom = view.getZoom();
  if (!center || zoom === undefined) return null;
  const [lon, lat] = toLonLat(center) as [number, number];
  return { lon, lat, zoom };
}

const sameView = (a: MapView | null, b: MapView | null) =>
  a !== null &&
  b !== null &&
  Math.abs(a.lon - b.lon) < 1e-5 &&
  Math.abs(a.lat - b.lat) < 1e-5 &&
  Math.abs(a.zoom - b.zoom) < 0.01;

export function MapCanvas(props: MapCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<OlMap | null>(null);
  // The callbacks and the changes as of the last render, for OpenLayers' event handlers.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const tileLayers = useRef(new Map<string, VectorTileLayer>());
  const deletedLayer = useRef<VectorLayer | null>(null);
  const fitted = useRef(props.view !== null);
  const firstDrawn = useRef(false);
  const [focused, setFocused] = useState(false);
  const [result, setResult] = useState('');
  const hint = useId();

  // The map, once.
  useEffect(() => {
    if (!container.current) return;
    const initial = latest.current.view;
    const map = createMap(
      container.current,
      new View({
        center: fromLonLat(initial ? [initial.lon, initial.lat] : [0, 20]),
        zoom: initial?.zoom ?? 2,
        maxZoom: MAX_ZOOM,
      }),
    );
    // OpenLayers' buttons show '+', '–' and 'i': their names say what they do.
    for (const [selector, label] of CONTROL_LABELS) {
      container.current.querySelector(selector)?.setAttribute('aria-label', label);
    }
    const deleted = new VectorLayer({
      source: new VectorSource(),
      zIndex: 1000,
      style: styleOf(CHANGE_COLOURS.delete),
    });
    map.addLayer(deleted);
    deletedLayer.current = deleted;
    mapRef.current = map;
    latest.current.onMap?.(map);

    // The view is written to the link a moment after the map stopped moving: a write
    // re-renders the route, which must not hold up the tiles of a new view (nor the first).
    let viewWrite: ReturnType<typeof setTimeout> | undefined;
    map.on('moveend', () => {
      // Until the map has been fitted to the data, its view is no view worth a link.
      if (!fitted.current) return;
      clearTimeout(viewWrite);
      viewWrite = setTimeout(() => {
        const view = currentView(map);
        if (view && !sameView(view, latest.current.view)) latest.current.onViewChange(view);
      }, VIEW_WRITE_DELAY_MS);
    });
    /** Chooses the feature at a place (a click, or Enter at the centre), null when none. */
    const pick = (coordinate: number[], tolerance: number): Selection | null => {
      const resolution = map.getView().getResolution() ?? 1;
      // Top first: the deleted features, then the layers as stacked (the server's features
      // a queued edit draws left out).
      const hidden = latest.current.hidden;
      const extra = map
        .getLayers()
        .getArray()
        .filter(
          (layer): layer is VectorLayer => layer instanceof VectorLayer && layer.get(PICKABLE),
        );
      const layers = [deleted, ...extra, ...tileLayers.current.values()]
        .filter((layer) => layer.getVisible())
        .sort((a, b) => (b.getZIndex() ?? 0) - (a.getZIndex() ?? 0))
        .map((layer) => ({
          featuresIn: (extent: number[]) =>
            layer instanceof VectorLayer
              ? (layer.getSource()?.getFeaturesInExtent(extent) ?? [])
              : layer
                  .getFeaturesInExtent(extent)
                  .filter(
                    (feature) => !hidden?.(String(feature.get('layer')), Number(feature.getId())),
                  ),
        }));
      const chosen = featuresAt(layers, coordinate, tolerance * resolution).flatMap(
        (feature): Selection[] => {
          const layer = feature.get('layer') as unknown;
          const fid = Number(feature.getId() ?? feature.get('fid'));
          if (typeof layer !== 'string' || !Number.isSafeInteger(fid)) return [];
          const former = feature.get('deletedFeature') as MapDeletedFeature | undefined;
          return [former ? { layer, fid, deleted: former } : { layer, fid }];
        },
      );
      // A feature drawn over itself (a tile's edge) is one choice.
      const unique = chosen.filter(
        (one, i) => chosen.findIndex((o) => o.layer === one.layer && o.fid === one.fid) === i,
      );
      const [top, ...others] = unique;
      if (!top) return null;
      return others.length > 0 ? { ...top, others: others.slice(0, MAX_OTHERS) } : top;
    };
    map.on('singleclick', (event) => {
      if (latest.current.onTap) return;
      const touch = (event.originalEvent as PointerEvent).pointerType === 'touch';
      latest.current.onSelect(pick(event.coordinate, touch ? TOUCH_TOLERANCE : HIT_TOLERANCE));
    });
    // While a feature is drawn every tap counts at once (a quick second one is no double
    // click: it neither zooms the map nor swallows the first).
    map.on('click', (event) => latest.current.onTap?.(event.coordinate));
    map.on('dblclick', (event) => {
      // Stopped here, the map's interactions (double-click zoom) never see it.
      if (latest.current.onTap) event.stopPropagation();
    });
    const removeKeys = listenForKeyboardPicks(container.current, map, {
      tapAt: (center) => {
        const onTap = latest.current.onTap;
        if (!onTap) return false;
        onTap(center);
        return true;
      },
      pickAt: (center) => {
        const selection = pick(center, KEY_TOLERANCE);
        latest.current.onSelect(selection);
        // Named as the feature panel names it.
        return selection && `${selection.layer} ${selection.fid}`;
      },
      clear: () => latest.current.onSelect(null),
      onResult: setResult,
    });
    const element = container.current;
    map.on('loadstart', () => element.setAttribute('aria-busy', 'true'));
    map.on('loadend', () => element.setAttribute('aria-busy', 'false'));
    // The first frame that drew features (of tiles rendered in it) is marked once.
    const firstFrame = map.on('postrender', () => {
      const drawn = [...tileLayers.current.values()].some(
        (layer) =>
          layer.getVisible() &&
          layer.getFeaturesInExtent(map.getView().calculateExtent()).length > 0,
      );
      if (!drawn) return;
      unByKey(firstFrame);
      firstDrawn.current = true;
      if (performance.getEntriesByName(FIRST_FEATURES_MARK).length === 0) {
        performance.mark(FIRST_FEATURES_MARK);
      }
    });

    const layers = tileLayers.current;
    return () => {
      latest.current.onMap?.(null);
      removeKeys();
      clearTimeout(viewWrite);
      map.setTarget(undefined);
      map.dispose();
      layers.clear();
      mapRef.current = null;
    };
  }, []);

  // The vector tile layers: added, removed and reordered as the visible layers change.
  const layerKey = props.layers.map((l) => `${l.name}\n${l.tileUrl}\n${l.colourIndex}`).join('\n');
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const wanted = new Map(latest.current.layers.map((layer) => [layer.tileUrl, layer]));
    for (const [url, layer] of tileLayers.current) {
      if (!wanted.has(url)) {
        map.removeLayer(layer);
        tileLayers.current.delete(url);
      }
    }
    for (const [url, layer] of wanted) {
      let olLayer = tileLayers.current.get(url);
      if (!olLayer) {
        const colourIndex = layer.colourIndex;
        olLayer = tileLayer(
          // The first tile with features is drawn at once, not at the next animation frame.
          tileSource(url, layer.name, {
            onFeatures: () => {
              if (!firstDrawn.current && mapRef.current === map) map.renderSync();
            },
          }),
          (feature) =>
            latest.current.hidden?.(layer.name, Number(feature.getId()))
              ? undefined
              : styleOf(
                  featureColour(
                    colourIndex,
                    latest.current.changes?.(layer.name, Number(feature.getId())),
                  ),
                ),
          layer.points,
        );
        tileLayers.current.set(url, olLayer);
        map.addLayer(olLayer);
      }
      olLayer.setZIndex(drawOrder(layer));
    }
  }, [layerKey]);

  // Changed features are redrawn in their change's colour (and hidden ones left out).
  useEffect(() => {
    for (const layer of tileLayers.current.values()) layer.changed();
  }, [props.changes, props.hidden]);

  // The deleted features, from their former geometry.
  useEffect(() => {
    const source = deletedLayer.current?.getSource();
    if (!source) return;
    source.clear();
    const format = new GeoJSON();
    for (const { layer, feature } of props.deleted) {
      if (!feature.geometry) continue;
      const olFeature = format.readFeature(
        { type: 'Feature', geometry: feature.geometry, properties: {} },
        { featureProjection: 'EPSG:3857' },
      );
      for (const one of [olFeature].flat()) {
        one.setId(feature.fid);
        one.setProperties({ layer, deletedFeature: feature });
        source.addFeature(one);
      }
    }
  }, [props.deleted]);

  // The basemap under everything.
  const basemapUrl = props.basemap?.url;
  const basemapAttribution = props.basemap?.attribution;
  useEffect(() => {
    const map = mapRef.current;
    // The service worker keeps the tiles seen, for offline use.
    postBasemapToServiceWorker(basemapUrl ?? null);
    if (!map || !basemapUrl) return;
    const layer = new TileLayer({
      source: new XYZ({
        url: basemapUrl,
        attributions: basemapAttribution || undefined,
        // Shown, not behind the 'i' button: tile providers' terms ask for a visible credit.
        attributionsCollapsible: false,
        crossOrigin: 'anonymous',
      }),
      zIndex: -1,
    });
    map.addLayer(layer);
    return () => {
      map.removeLayer(layer);
    };
  }, [basemapUrl, basemapAttribution]);

  // Fit to the data on open (when the link names no view).
  useEffect(() => {
    const map = mapRef.current;
    if (!map || fitted.current || !props.dataExtent) return;
    fitted.current = true;
    map.getView().fit(props.dataExtent, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM });
  }, [props.dataExtent]);

  // A view from the link (back/forward, a shared link) moves the map.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !props.view || sameView(props.view, currentView(map))) return;
    map.getView().setCenter(fromLonLat([props.view.lon, props.view.lat]));
    map.getView().setZoom(props.view.zoom);
  }, [props.view]);

  // Zoom to a feature chosen in the table.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !props.zoomTo) return;
    map.getView().fit(props.zoomTo, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM });
  }, [props.zoomTo]);

  // New layers (after the effects above placed the view): drawn now rather than at the next
  // animation frame, so their tiles are asked for at once (the first frame waits for them).
  useEffect(() => {
    if (layerKey !== '') mapRef.current?.renderSync();
  }, [layerKey]);

  return (
    <Box style={{ position: 'absolute', inset: 0 }}>
      <Box
        ref={container}
        role="application"
        aria-label="Map"
        aria-roledescription="map"
        aria-describedby={hint}
        aria-busy="true"
        tabIndex={0}
        // The mark shows for keyboard focus (not after a click), and with the first key.
        onFocus={(event) =>
          setFocused(event.target === event.currentTarget && focusVisible(event.currentTarget))
        }
        onKeyDown={(event) => {
          if (event.target === event.currentTarget) setFocused(true);
        }}
        onBlur={() => {
          setFocused(false);
          setResult('');
        }}
        // Every gesture that starts on the map is the map's: never the browser's pan, zoom or
        // swipe back in history (OpenLayers' viewport allows pan-x pan-y, for embedded maps).
        style={{ position: 'absolute', inset: 0, touchAction: 'none' }}
      />
      <CentreMark shown={focused} result={result} hintId={hint} />
    </Box>
  );
}
