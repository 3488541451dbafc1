import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Extent } from '@contract/map';
import { isApiError } from '@/api';
import { useFieldCapture } from '@/features/capture';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { SidePanel } from '@/components/SidePanel';
import type { ProjectDetail } from '@contract/projects';
import { configQueryOptions } from '@/platform/config';
import {
  canvasLayers as canvasLayersOf,
  changesQueryOptions,
  featureQueryOptions,
  layersQueryOptions,
  type MapSource,
} from '../api/map';
import { changeLookup, presentChangedFids } from '../model/changes';
import { CHANGE_COLOURS, CHANGE_LABELS, type ChangeKind } from '../model/colours';
import { geoPackagesOf, onLatestVersion, unionExtent, versionNames } from '../model/project';
import { layersParam, visibleLayers } from '../model/layers';
import { formSheetHeightCss, mapHeightCss, MAP_MIN_HEIGHT, MAP_PANEL_GAP } from '../model/layout';
import type { MapSearch } from '../model/search';
import { formatView } from '../model/view';
import { readMapSearch } from '../model/params';
import { AttributeTable } from './AttributeTable';
import { ExportMenu } from './ExportMenu';
import { MapLinks } from './MapLinks';
import { FeaturePanel } from './FeaturePanel';
import { LayerPanel } from './LayerPanel';
import { LayersAside } from './LayersAside';
import { MapCanvas, type Selection } from './MapCanvas';
import { PlainSelect } from './PlainSelect';
import { useNarrow } from './useNarrow';
import { ErrorAlert } from '@/components/ErrorAlert';

export interface MapPageProps {
  project: ProjectDetail;
  search: MapSearch;
  /** The signed-in user (field capture's defaults), or null. */
  user?: { username: string; email: string | null } | null;
  /** Changes the search params (replace: the history entry is replaced, e.g. for panning). */
  onSearch: (change: Partial<MapSearch>, replace?: boolean) => void;
}

export const NOT_CHANGED_BY_VERSION = 'This version did not change this file';
export const CALCULATING = 'Calculating changes…';

/**
 * The Map tab (issue 19): a version picker shared by the map and the attribute table, the map
 * with its layer panel (a drawer at 768 px and below), the attributes of the feature clicked,
 * the attribute table of a layer, and the changes of a version in three colours.
 */
export function MapPage({ project, search: raw, onSearch, user = null }: MapPageProps) {
  const search = useMemo(() => readMapSearch(raw), [raw]);
  const narrow = useNarrow();
  const [drawer, setDrawer] = useState(false);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [zoomTo, setZoomTo] = useState<Extent | null>(null);
  const files = geoPackagesOf(project.files);
  const file = search.file ?? files[0] ?? '';
  const source: MapSource = {
    namespace: project.namespace,
    projectName: project.name,
    file,
    version: search.version,
  };
  const layersOptions = layersQueryOptions(source);
  // Asked as the page renders, not once the map below has been set up (a child's effects run
  // before this component's, where useQuery would start it): the first frame waits for it.
  const queryClient = useQueryClient();
  if (file !== '' && !queryClient.getQueryState(layersOptions.queryKey)) {
    void queryClient.prefetchQuery(layersOptions);
  }
  const layersQuery = useQuery({ ...layersOptions, enabled: file !== '' });
  const config = useQuery(configQueryOptions);
  const layers = layersQuery.data?.layers;
  // Every other call names the version the layers answer resolved (cacheable, and offline
  // the same as what was seen).
  const shown: MapSource = { ...source, version: layersQuery.data?.version ?? search.version };

  const changesWanted = search.changes;
  const changesQuery = useQuery({
    ...changesQueryOptions({ ...source, version: search.version ?? '' }),
    enabled: changesWanted && file !== '',
  });
  const changes =
    changesWanted && changesQuery.data && changesQuery.data !== 'pending'
      ? changesQuery.data
      : null;
  const lookup = useMemo(() => (changes ? changeLookup(changes) : null), [changes]);
  const deleted = useMemo(
    () =>
      (changes?.layers ?? []).flatMap((layer) =>
        layer.deleted_features.map((feature) => ({ layer: layer.layer, feature })),
      ),
    [changes],
  );

  const names = useMemo(() => (layers ?? []).map((layer) => layer.name), [layers]);
  const visible = visibleLayers(search.layers, names);
  const canvasLayers = layersQuery.data ? canvasLayersOf(layersQuery.data, source, visible) : [];
  const dataExtent = useMemo(
    () => unionExtent((layers ?? []).map((layer) => layer.extent_3857)),
    [layers],
  );
  const view = search.view;
  const tableLayer = layers?.find((layer) => layer.name === search.table);
  // 'Attribute table' opened below the map: it is brought into view (issue 31).
  const revealTable = useRef(false);
  const tableBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!tableLayer || !revealTable.current) return;
    revealTable.current = false;
    tableBox.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [tableLayer]);

  // Field capture (issue 34): adding, editing and deleting features of the latest version.
  const clearSelection = useCallback(() => setSelection(null), []);
  const loadFeature = useCallback(
    (layer: string, fid: number) => queryClient.fetchQuery(featureQueryOptions(shown, layer, fid)),
    // `shown` is made anew each render; its parts name it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, shown.namespace, shown.projectName, shown.file, shown.version],
  );
  const capture = useFieldCapture({
    project,
    file,
    layers: layersQuery.data,
    latest: onLatestVersion(search.version, layersQuery.data?.version, project.version),
    selection,
    clearSelection,
    loadFeature,
    user,
    narrow,
    sheetHeight: formSheetHeightCss(),
  });

  const toggle = (name: string, on: boolean) => {
    const next = on ? [...visible, name] : visible.filter((other) => other !== name);
    onSearch({ layers: layersParam(next, names) }, true);
  };
  const layerPanel = layers && (
    <LayerPanel
      layers={layers}
      visible={visible}
      onToggle={toggle}
      onOpenTable={(table) => {
        setDrawer(false);
        revealTable.current = true;
        onSearch({ table });
      }}
      actions={(layer) => <ExportMenu source={shown} layer={layer.name} size="compact-xs" />}
    />
  );

  if (files.length === 0 && !search.file) {
    return <Text c="dimmed">This project has no GeoPackage to show on a map</Text>;
  }

  const versions = versionNames(project.version);
  const current = layersQuery.data?.version ?? search.version ?? project.version;

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end">
        <PlainSelect
          label="Version"
          value={current}
          options={versions.includes(current) ? versions : [current, ...versions]}
          onChange={(version) => onSearch({ version, changes: undefined })}
        />
        {files.length > 1 && (
          <PlainSelect
            label="GeoPackage"
            value={file}
            options={files}
            onChange={(next) =>
              onSearch({
                file: next,
                layers: undefined,
                table: undefined,
                view: undefined,
                changes: undefined,
              })
            }
          />
        )}
        {narrow && (
          <Button
            variant="default"
            leftSection={<IconStack2 size={16} aria-hidden />}
            onClick={() => setDrawer(true)}
          >
            Layers
          </Button>
        )}
        <MapLinks project={project} version={layersQuery.data?.version} search={raw} />
        {capture.toolbar}
        {changesWanted && (
          <ChangesLegend
            pending={changesQuery.data === 'pending'}
            notChanged={isApiError(changesQuery.error) && changesQuery.error.status === 404}
            error={changesQuery.isError ? changesQuery.error.message : null}
            truncated={changes?.truncated === true}
            onHide={() => onSearch({ changes: undefined })}
          />
        )}
      </Group>
      <ErrorAlert error={layersQuery.error} />
      <Box style={{ display: 'flex', gap: MAP_PANEL_GAP, alignItems: 'stretch' }}>
        <Box
          pos="relative"
          style={{ flex: 1, minWidth: 0, height: mapHeightCss(narrow), minHeight: MAP_MIN_HEIGHT }}
        >
          <MapCanvas
            layers={canvasLayers}
            dataExtent={dataExtent}
            view={view}
            changes={lookup}
            deleted={deleted}
            basemap={config.data?.basemap ?? null}
            zoomTo={zoomTo}
            onViewChange={(next) => onSearch({ view: formatView(next) }, true)}
            onSelect={setSelection}
            {...capture.canvas}
          />
          {layersQuery.isPending && file !== '' && (
            <Box pos="absolute" top={8} right={8} style={{ zIndex: 2 }}>
              <LoadingIndicator label="Loading the layers" size="sm" />
            </Box>
          )}
          {selection && !capture.busy && (
            <FeaturePanel
              key={`${selection.layer}/${selection.fid}/${shown.version ?? ''}`}
              source={shown}
              selection={selection}
              change={lookup?.(selection.layer, selection.fid)}
              onClose={() => setSelection(null)}
              onChoose={setSelection}
              {...capture.panel(selection)}
            />
          )}
          {capture.overlay}
        </Box>
        {!narrow && <LayersAside narrow={narrow}>{layerPanel}</LayersAside>}
      </Box>
      {capture.sheet}
      {narrow && (
        <SidePanel
          opened={drawer}
          onClose={() => setDrawer(false)}
          title="Layers"
          header={<Text fw={600}>Layers</Text>}
        >
          {layerPanel}
        </SidePanel>
      )}
      {tableLayer && (
        <Box ref={tableBox} style={{ scrollMarginTop: 76 }}>
          <AttributeTable
            key={`${tableLayer.name}/${shown.version ?? ''}/${changes ? 'changes' : 'all'}`}
            source={shown}
            layer={tableLayer}
            fids={
              changes
                ? presentChangedFids(changes.layers.find((l) => l.layer === tableLayer.name))
                : undefined
            }
            change={lookup ? (fid) => lookup(tableLayer.name, fid) : undefined}
            pending={capture.table(tableLayer.name)}
            onZoom={(extent) => setZoomTo([...extent])}
            onClose={() => onSearch({ table: undefined })}
          />
        </Box>
      )}
    </Stack>
  );
}

function ChangesLegend({
  pending,
  notChanged,
  error,
  truncated,
  onHide,
}: {
  pending: boolean;
  notChanged: boolean;
  error: string | null;
  truncated: boolean;
  onHide: () => void;
}) {
  let body;
  if (pending)
    body = (
      <Text size="sm" role="status">
        {CALCULATING}
      </Text>
    );
  else if (notChanged) body = <Text size="sm">{NOT_CHANGED_BY_VERSION}</Text>;
  else if (error)
    body = (
      <Text size="sm" c="red.8" role="alert">
        {error}
      </Text>
    );
  else
    body = (
      <Group
        gap="xs"
        component="ul"
        aria-label="Changes"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {(Object.keys(CHANGE_COLOURS) as ChangeKind[]).map((kind) => (
          <Group key={kind} gap={4} component="li" wrap="nowrap">
            <Box
              aria-hidden
              w={12}
              h={12}
              style={{ borderRadius: 3, background: CHANGE_COLOURS[kind] }}
            />
            <Text size="sm">{CHANGE_LABELS[kind]}</Text>
          </Group>
        ))}
        {truncated && (
          <Text size="sm" c="dimmed">
            (partial)
          </Text>
        )}
      </Group>
    );
  return (
    <Group gap="sm" pb={6}>
      {body}
      <Button variant="subtle" size="compact-sm" onClick={onHide}>
        Hide changes
      </Button>
    </Group>
  );
}
