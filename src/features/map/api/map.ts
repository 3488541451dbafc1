/**
 * The map routes (server/src/schemas/map.ts): a GeoPackage's layers, its vector tiles, attribute
 * rows and one feature, and the changes of a version, for one file at one version. Every call
 * runs also offline (`networkMode: 'always'`): the service worker answers from what it kept
 * (src/sw/mapData.ts).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  MapChanges,
  MapFeature,
  MapFeaturePage,
  MapFeatureQuery,
  MapLayers,
} from '@contract/map';
import { api } from '@/api';
import { isUnreachable } from '@/offline/offlineCache';
import { findSeenRow } from '@/offline/seenMapRows';
import { isLineType, isPointType, type CanvasLayer } from '../model/layers';
import { TABLE_PAGE_SIZE, tableRows, type TableState } from '../model/table';

export const LOAD_LAYERS_FALLBACK = 'Failed to load the layers';
export const LOAD_FEATURES_FALLBACK = 'Failed to load the attribute table';
export const LOAD_FEATURE_FALLBACK = 'Failed to load the feature';
export const LOAD_CHANGES_FALLBACK = 'Failed to load the changes';

/** The project and the file at a version (absent: the latest) every call is about. */
export interface MapSource {
  namespace: string;
  projectName: string;
  file: string;
  version?: string;
  /** A read-only view link's token: read access through it (the view link page). */
  link?: string;
}

const base = ({ namespace, projectName }: MapSource) =>
  `/app/map/${encodeURIComponent(namespace)}/${encodeURIComponent(projectName)}`;

const fileQuery = ({ file, version, link }: MapSource) => ({ file, version, link });

const key = (source: MapSource, ...rest: unknown[]) =>
  [
    'map',
    source.namespace,
    source.projectName,
    source.file,
    source.version ?? '',
    source.link ?? '',
    ...rest,
  ] as const;

export const layersQueryOptions = (source: MapSource) =>
  queryOptions({
    queryKey: key(source, 'layers'),
    queryFn: ({ signal }) =>
      api.get<MapLayers>(`${base(source)}/layers`, {
        query: fileQuery(source),
        signal,
        fallbackMessage: LOAD_LAYERS_FALLBACK,
      }),
    staleTime: 30_000,
    networkMode: 'always',
    meta: { silent: true },
  });

/** The XYZ URL template of a layer's tiles (OpenLayers fills `{z}`, `{x}`, `{y}`). */
export function tileUrlTemplate(source: MapSource, layer: string): string {
  return api.url(
    `${base(source)}/tiles/${encodeURIComponent(layer)}/{z}/{x}/{y}.mvt`,
    fileQuery(source),
  );
}

/**
 * The layers of a layers answer the map draws: those with geometry among `visible`, each with
 * its colour (its place in the answer) and the tiles of the answer's version.
 */
export function canvasLayers(
  answer: MapLayers,
  source: MapSource,
  visible: readonly string[],
): CanvasLayer[] {
  const shown = { ...source, version: answer.version };
  return answer.layers.flatMap((layer, colourIndex) =>
    layer.drawable && visible.includes(layer.name)
      ? [
          {
            name: layer.name,
            colourIndex,
            tileUrl: tileUrlTemplate(shown, layer.name),
            extent: layer.extent_3857,
            points: isPointType(layer.geometry_type),
            lines: isLineType(layer.geometry_type),
          },
        ]
      : [],
  );
}

/** The query of one page of attribute rows for the table's state (and changed fids). */
export function featurePageQuery(
  state: TableState,
  fids?: readonly number[],
): Omit<MapFeatureQuery, 'file' | 'version'> {
  return { page: state.page, per_page: TABLE_PAGE_SIZE, ...tableRows(state, fids) };
}

export const featurePageQueryOptions = (
  source: MapSource,
  layer: string,
  state: TableState,
  fids?: readonly number[],
) => {
  const query = featurePageQuery(state, fids);
  return queryOptions({
    queryKey: key(source, 'features', layer, query),
    queryFn: ({ signal }) =>
      api.get<MapFeaturePage>(`${base(source)}/features/${encodeURIComponent(layer)}`, {
        query: { ...fileQuery(source), ...query },
        signal,
        fallbackMessage: LOAD_FEATURES_FALLBACK,
      }),
    staleTime: 30_000,
    networkMode: 'always',
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
};

/**
 * One feature with its geometry. Offline, a feature never opened on its own is read from an
 * attribute page of its layer seen on this device (without its geometry then; issue 34).
 */
export const featureQueryOptions = (source: MapSource, layer: string, fid: number) =>
  queryOptions({
    queryKey: key(source, 'feature', layer, fid),
    queryFn: async ({ signal }) => {
      const path = `${base(source)}/features/${encodeURIComponent(layer)}`;
      try {
        return await api.get<MapFeature>(`${path}/${fid}`, {
          query: fileQuery(source),
          signal,
          fallbackMessage: LOAD_FEATURE_FALLBACK,
        });
      } catch (error) {
        const seen =
          isUnreachable(error) && source.version
            ? await findSeenRow(path, source.file, source.version, fid).catch(() => undefined)
            : undefined;
        if (!seen) throw error;
        return {
          fid,
          geometry_type: seen.geometry_type ?? null,
          extent_3857: null,
          properties: seen.properties,
        } satisfies MapFeature;
      }
    },
    staleTime: 30_000,
    networkMode: 'always',
    meta: { silent: true },
  });

/** The changes answer, or 'pending' while the server still calculates them (202). */
export type ChangesAnswer = MapChanges | 'pending';

const CHANGES_POLL_MS = 2000;
const CHANGES_POLL_LIMIT = 60;

export const changesQueryOptions = (source: MapSource & { version: string }) =>
  queryOptions({
    queryKey: key(source, 'changes'),
    queryFn: async ({ signal }): Promise<ChangesAnswer> => {
      const data = await api.get<MapChanges | { status?: unknown }>(`${base(source)}/changes`, {
        query: fileQuery(source),
        signal,
        fallbackMessage: LOAD_CHANGES_FALLBACK,
      });
      return 'layers' in data ? data : 'pending';
    },
    // A version's changes never change once calculated.
    staleTime: Infinity,
    networkMode: 'always',
    refetchInterval: (query) =>
      query.state.data === 'pending' && query.state.dataUpdateCount < CHANGES_POLL_LIMIT
        ? CHANGES_POLL_MS
        : false,
    meta: { silent: true },
  });
