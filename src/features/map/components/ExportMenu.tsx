import { Button, Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { exportUrl, type ExportRows } from '../api/dataOut';
import type { MapSource } from '../api/map';
import { EXPORT_FORMATS } from '../model/dataOut';

export interface ExportMenuProps {
  source: MapSource;
  layer: string;
  /** The rows the table shows (its filter and sort); absent: only all rows are offered. */
  shown?: { rows: ExportRows; count: number | undefined };
  size?: 'compact-xs' | 'compact-sm';
}

export const EXPORT_LABEL = 'Export';

/**
 * A layer's export (issue 32) as GeoJSON, CSV, GeoPackage or KML, at the version shown: all
 * rows, or the rows the attribute table shows (its filter and sort). Each item is a link to
 * the export, which the browser downloads under the server's file name
 * (project-layer-version.ext). A view link's holder reads but does not download: none then.
 */
export function ExportMenu({ source, layer, shown, size = 'compact-sm' }: ExportMenuProps) {
  if (source.link) return null;
  const filtered =
    shown !== undefined &&
    (shown.rows.filter !== undefined ||
      shown.rows.sort !== undefined ||
      shown.rows.fids !== undefined);
  const items = (rows: ExportRows | undefined, what: string) =>
    EXPORT_FORMATS.map(({ format, label }) => (
      <Menu.Item
        key={`${what}-${format}`}
        component="a"
        href={exportUrl(source, layer, format, rows)}
        download
        aria-label={`${label} of ${what}`}
      >
        {label}
      </Menu.Item>
    ));
  const shownLabel =
    shown?.count === undefined
      ? 'the rows shown'
      : shown.count === 1
        ? 'the 1 row shown'
        : `the ${shown.count} rows shown`;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size={size}
          leftSection={<IconDownload size={14} aria-hidden />}
          aria-label={`Export ${layer}`}
        >
          {EXPORT_LABEL}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {filtered && (
          <>
            <Menu.Label>{`Filtered and sorted: ${shownLabel}`}</Menu.Label>
            {items(shown.rows, shownLabel)}
            <Menu.Divider />
          </>
        )}
        <Menu.Label>All rows</Menu.Label>
        {items(undefined, 'all rows')}
      </Menu.Dropdown>
    </Menu>
  );
}
