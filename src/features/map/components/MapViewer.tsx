import { Alert, Box, Paper, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import type { Extent } from '@contract/map';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { configQueryOptions } from '@/platform/config';
import { canvasLayers as canvasLayersOf, layersQueryOptions, type MapSource } from '../api/map';
import { layersParam, visibleLayers } from '../model/layers';
import { MAP_MIN_HEIGHT, MAP_PANEL_GAP, mapHeightCss } from '../model/layout';
import { unionExtent } from '../model/project';
import { formatView, type MapView } from '../model/view';
import type { MapSearch } from '../model/search';
import { AttributeTable } from './AttributeTable';
import { FeaturePanel } from './FeaturePanel';
import { LayerPanel } from './LayerPanel';
import { LayersAside } from './LayersAside';
import { MapCanvas, type Selection } from './MapCanvas';
import { PlainSelect } from './PlainSelect';
import { useNarrow } from './useNarrow';
import { ErrorAlert } from '@/components/ErrorAlert';

export interface MapViewerProps {
  /** The project, file and version shown (and a view link's token). */
  source: MapSource;
  /** The project's GeoPackages (a select when there are several). */
  files: readonly string[];
  /** Versions to pick from (newest first); absent: no picker (the embed page). */
  versions?: readonly string[];
  layers: string | undefined;
  view: MapView | null;
  table: string | undefined;
  onChange: (change: Partial<MapSearch>, replace?: boolean) => void;
  /**
   * `embed`: the map filling its frame, layer toggles over it, no tables; `page`: the map
   * beside its layers, attribute tables below (a view link's page).
   */
  mode: 'embed' | 'page';
  /** Credit for the data, over the map's corner (the embed page). */
  credit?: ReactNode;
}

/**
 * A project's map for readers without the Map tab (issue 32): the embed page of a public
 * project and the page of a read-only view link. The map, layer toggles, a clicked feature's
 * attributes, and on a page the attribute tables; nothing that edits or downloads.
 */
export function MapViewer({
  source,
  files,
  versions,
  layers: layersSearch,
  view,
  table,
  onChange,
  mode,
  credit,
}: MapViewerProps) {
  const narrow = useNarrow();
  const [selection, setSelection] = useState<Selection | null>(null);
  const [zoomTo, setZoomTo] = useState<Extent | null>(null);
  const layersQuery = useQuery({ ...layersQueryOptions(source), enabled: source.file !== '' });
  const config = useQuery(configQueryOptions);
  const answer = layersQuery.data;
  const shown: MapSource = { ...source, version: answer?.version ?? source.version };
  const names = useMemo(() => (answer?.layers ?? []).map((layer) => layer.name), [answer]);
  const visible = visibleLayers(layersSearch, names);
  const dataExtent = useMemo(
    () => unionExtent((answer?.layers ?? []).map((layer) => layer.extent_3857)),
    [answer],
  );
  const tableLayer =
    mode === 'page' ? answer?.layers.find((layer) => layer.name === table) : undefined;
  const toggle = (name: string, on: boolean) => {
    const next = on ? [...visible, name] : visible.filter((other) => other !== name);
    onChange({ layers: layersParam(next, names) }, true);
  };
  const panel = answer && (
    <LayerPanel
      layers={answer.layers}
      visible={visible}
      onToggle={toggle}
      onOpenTable={mode === 'page' ? (name) => onChange({ table: name }) : undefined}
    />
  );
  const current = answer?.version ?? source.version;

  const map = (
    <Box
      style={
        mode === 'embed'
          ? { position: 'absolute', inset: 0 }
          : {
              position: 'relative',
              flex: 1,
              minWidth: 0,
              height: mapHeightCss(narrow),
              minHeight: MAP_MIN_HEIGHT,
            }
      }
    >
      <MapCanvas
        layers={answer ? canvasLayersOf(answer, source, visible) : []}
        dataExtent={dataExtent}
        view={view}
        changes={null}
        deleted={[]}
        basemap={config.data?.basemap ?? null}
        zoomTo={zoomTo}
        onViewChange={(next) => onChange({ view: formatView(next) }, true)}
        onSelect={setSelection}
      />
      {layersQuery.isPending && source.file !== '' && (
        <Box pos="absolute" top={8} left={48} style={{ zIndex: 2 }}>
          <LoadingIndicator label="Loading the layers" size="sm" />
        </Box>
      )}
      {selection && (
        <FeaturePanel
          key={`${selection.layer}/${selection.fid}/${shown.version ?? ''}`}
          source={shown}
          selection={selection}
          change={undefined}
          onClose={() => setSelection(null)}
        />
      )}
      {mode === 'embed' && panel && (
        <Paper
          component="aside"
          aria-label="Layers"
          withBorder
          shadow="sm"
          p="xs"
          style={{
            position: 'absolute',
            top: 8,
            right: 8,
            zIndex: 2,
            maxWidth: 'min(240px, 45%)',
            maxHeight: 'calc(100% - 48px)',
            overflowY: 'auto',
          }}
        >
          {panel}
        </Paper>
      )}
      {credit && (
        <Box
          style={{
            position: 'absolute',
            left: 8,
            bottom: 8,
            zIndex: 2,
            background: 'rgba(255, 255, 255, 0.85)',
            borderRadius: 4,
            padding: '2px 6px',
          }}
        >
          {credit}
        </Box>
      )}
    </Box>
  );

  if (mode === 'embed') {
    return (
      <Box style={{ position: 'relative', width: '100%', height: '100dvh' }}>
        {map}
        {layersQuery.isError && (
          <Alert
            color="red"
            role="alert"
            style={{ position: 'absolute', top: 8, left: 48, zIndex: 3 }}
          >
            {layersQuery.error.message}
          </Alert>
        )}
      </Box>
    );
  }

  return (
    <Stack gap="sm">
      {(versions || files.length > 1) && (
        <Box style={{ display: 'flex', gap: 12, alignItems: 'flex-end', flexWrap: 'wrap' }}>
          {versions && current && (
            <PlainSelect
              label="Version"
              value={current}
              options={versions.includes(current) ? versions : [current, ...versions]}
              onChange={(version) => onChange({ version })}
            />
          )}
          {files.length > 1 && (
            <PlainSelect
              label="GeoPackage"
              value={source.file}
              options={files}
              onChange={(file) =>
                onChange({ file, layers: undefined, table: undefined, view: undefined })
              }
            />
          )}
        </Box>
      )}
      <ErrorAlert error={layersQuery.error} />
      <Box style={{ display: 'flex', gap: MAP_PANEL_GAP, alignItems: 'stretch', flexWrap: 'wrap' }}>
        {map}
        <LayersAside narrow={narrow}>{panel}</LayersAside>
      </Box>
      {tableLayer && (
        <AttributeTable
          key={`${tableLayer.name}/${shown.version ?? ''}`}
          source={shown}
          layer={tableLayer}
          onZoom={(extent) => setZoomTo([...extent])}
          onClose={() => onChange({ table: undefined })}
        />
      )}
    </Stack>
  );
}
