import {
  ActionIcon,
  CloseButton,
  Group,
  Paper,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconFocus2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useState } from 'react';
import type { Extent, MapLayer } from '@contract/map';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import type { PendingTableRows } from '@/features/capture';
import { Paginator } from '@/components/Paginator';
import { featurePageQueryOptions, type MapSource } from '../api/map';
import { CHANGE_COLOURS, CHANGE_LABELS, type ChangeKind } from '../model/colours';
import {
  INITIAL_TABLE_STATE,
  TABLE_PAGE_SIZE,
  ariaSort,
  tableReducer,
  tableRows,
} from '../model/table';
import { ExportMenu } from './ExportMenu';
import { displayValue } from './FeaturePanel';
import { ErrorAlert } from '@/components/ErrorAlert';

export interface AttributeTableProps {
  source: MapSource;
  layer: MapLayer;
  /** Only these features (the changes of a version); undefined: all. */
  fids?: readonly number[];
  change?: (fid: number) => ChangeKind | undefined;
  onZoom: (extent: Extent) => void;
  onClose: () => void;
  /**
   * Field capture (issue 34): the layer's queued edits: each row's mark ('Pending: changed'),
   * the values an edit sets, and the features added on this device (above the first page).
   */
  pending?: PendingTableRows;
}

export const FILTER_LABEL = 'Filter rows';
export const CHANGED_ONLY = 'Only the features this version inserted or updated';

/**
 * A layer's attribute rows (issue 19): 50 a page, sorted by any column (the header buttons;
 * `aria-sort` on the header says how),
 * filtered by text; the geometry as its type with a button that zooms the map to the feature.
 */
export function AttributeTable({
  source,
  layer,
  fids,
  change,
  onZoom,
  onClose,
  pending,
}: AttributeTableProps) {
  const [state, dispatch] = useReducer(tableReducer, INITIAL_TABLE_STATE);
  const [text, setText] = useState('');
  const [filter] = useDebouncedValue(text.trim(), 300);
  useEffect(() => dispatch({ type: 'filter', text: filter }), [filter]);
  const query = useQuery(featurePageQueryOptions(source, layer.name, state, fids));
  const columns = [layer.fid_column, ...layer.columns.map((column) => column.name)];

  const sortButton = (column: string) => {
    const sort = ariaSort(state, column);
    return (
      <UnstyledButton
        onClick={() => dispatch({ type: 'sort', column })}
        fw={600}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {column}
        {sort === 'ascending' && <IconArrowUp size={14} aria-hidden />}
        {sort === 'descending' && <IconArrowDown size={14} aria-hidden />}
      </UnstyledButton>
    );
  };

  return (
    <Paper component="section" aria-label={`Attribute table of ${layer.name}`} withBorder p="sm">
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title order={2} fz="h4" style={{ wordBreak: 'break-all' }}>
          {layer.name}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <ExportMenu
            source={source}
            layer={layer.name}
            shown={{ rows: tableRows(state, fids), count: query.data?.count }}
          />
          <CloseButton aria-label="Close the attribute table" onClick={onClose} />
        </Group>
      </Group>
      <Group align="flex-end" mb="xs">
        <TextInput
          label={FILTER_LABEL}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          maxLength={200}
          w={260}
        />
        {fids && (
          <Text size="sm" c="dimmed">
            {CHANGED_ONLY}
          </Text>
        )}
      </Group>
      <ErrorAlert error={query.error} />
      {query.isPending && <LoadingIndicator label="Loading the attribute table" size="sm" />}
      {query.data && (
        <>
          <Table.ScrollContainer minWidth={320}>
            <Table striped highlightOnHover fz="sm" aria-busy={query.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th aria-sort={ariaSort(state, layer.fid_column)}>
                    {sortButton(layer.fid_column)}
                  </Table.Th>
                  <Table.Th>Geometry</Table.Th>
                  {columns.slice(1).map((column) => (
                    <Table.Th key={column} aria-sort={ariaSort(state, column)}>
                      {sortButton(column)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[
                  ...(state.page === 1 && !fids
                    ? (pending?.added ?? []).map((row) => ({ ...row, extent_3857: null }))
                    : []),
                  ...query.data.features,
                ].map((row) => {
                  const kind = change?.(row.fid);
                  const mark = pending?.markOf(row.fid);
                  const overrides = pending?.valuesOf(row.fid);
                  const feature = overrides
                    ? { ...row, properties: { ...row.properties, ...overrides } }
                    : row;
                  return (
                    <Table.Tr key={feature.fid}>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          {feature.fid < 0 ? '' : feature.fid}
                          {kind && (
                            <Text size="xs" c={CHANGE_COLOURS[kind]} fw={600}>
                              {CHANGE_LABELS[kind]}
                            </Text>
                          )}
                          {mark && (
                            <Text size="xs" c="orange.9" fw={600}>
                              {mark}
                            </Text>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {feature.geometry_type ?? ''}
                          {feature.extent_3857 && (
                            <ActionIcon
                              variant="subtle"
                              size="sm"
                              aria-label={`Zoom to feature ${feature.fid}`}
                              onClick={() => feature.extent_3857 && onZoom(feature.extent_3857)}
                            >
                              <IconFocus2 size={16} aria-hidden />
                            </ActionIcon>
                          )}
                        </Group>
                      </Table.Td>
                      {columns.slice(1).map((column) => (
                        <Table.Td key={column}>{displayValue(feature.properties[column])}</Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {query.data.features.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="sm">
              No rows
            </Text>
          )}
          <Text size="sm" c="dimmed" mt="xs" role="status">
            {query.data.count === 1 ? '1 row' : `${query.data.count} rows`}
          </Text>
          <Paginator
            page={state.page}
            count={query.data.count}
            perPage={TABLE_PAGE_SIZE}
            onChange={(page) => dispatch({ type: 'page', page })}
            label="Pages of the attribute table"
          />
        </>
      )}
    </Paper>
  );
}
