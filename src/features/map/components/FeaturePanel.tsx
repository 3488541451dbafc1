import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Group,
  Paper,
  ScrollArea,
  Table,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { MapValue } from '@contract/map';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import type { PendingPanel } from '@/features/capture';
import { featureQueryOptions, type MapSource } from '../api/map';
import { CHANGE_COLOURS, CHANGE_LABELS, type ChangeKind } from '../model/colours';
import type { Selection } from './MapCanvas';

/**
 * With field capture (issue 34, `PendingPanel`): a queued edit of the feature (its mark and the
 * values it sets; `local`: a feature added on this device, which the server does not have
 * yet), how a value is shown (labels, photos), and the panel's actions ('Edit', 'Delete feature').
 */
export interface FeaturePanelProps extends PendingPanel {
  source: MapSource;
  selection: Selection;
  change: ChangeKind | undefined;
  onClose: () => void;
  /** Opens another feature that was under the click (`selection.others`). */
  onChoose?: (selection: Selection) => void;
}

/** The list of the other features under the click. */
export const ALSO_HERE = 'Also here';

/** A value as the panel and the table show it. */
export function displayValue(value: MapValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/** The attributes of the feature clicked on the map (issue 19), over the map's corner. */
export function FeaturePanel({
  source,
  selection,
  change,
  onClose,
  onChoose,
  pending,
  renderValue,
  actions,
}: FeaturePanelProps) {
  const query = useQuery({
    ...featureQueryOptions(source, selection.layer, selection.fid),
    enabled: !selection.deleted && !pending?.local,
  });
  const loaded = selection.deleted?.properties ?? query.data?.properties;
  const properties =
    pending && (loaded || pending.local) ? { ...loaded, ...pending.values } : loaded;
  const title = pending?.local ? `${selection.layer} (new)` : `${selection.layer} ${selection.fid}`;
  return (
    <Paper
      component="section"
      aria-label={`Feature ${title}`}
      withBorder
      shadow="md"
      p="sm"
      style={{
        position: 'absolute',
        top: 8,
        left: 48,
        zIndex: 2,
        width: 'min(320px, calc(100% - 64px))',
        maxHeight: 'calc(100% - 16px)',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
            {title}
          </Text>
          {change && (
            <Badge color={CHANGE_COLOURS[change]} variant="filled" size="sm">
              {CHANGE_LABELS[change]}
            </Badge>
          )}
          {pending?.mark}
        </Group>
        <CloseButton aria-label="Close the feature" onClick={onClose} />
      </Group>
      {onChoose && selection.others && selection.others.length > 0 && (
        // Several features under the finger: the one drawn on top opened; the others are here.
        <Group gap={4} mb="xs" role="group" aria-label={ALSO_HERE}>
          <Text size="xs" c="dimmed">
            {ALSO_HERE}:
          </Text>
          {selection.others.map((other) => (
            <Button
              key={`${other.layer}/${other.fid}`}
              size="compact-xs"
              variant="default"
              onClick={() => {
                const rest = [
                  { ...selection, others: undefined },
                  ...(selection.others ?? []).filter((o) => o !== other),
                ];
                onChoose({ ...other, others: rest });
              }}
            >
              {other.layer} {other.fid}
            </Button>
          ))}
        </Group>
      )}
      {query.isPending && !selection.deleted && !pending?.local && (
        <LoadingIndicator label="Loading the feature" size="sm" />
      )}
      {query.isError && !pending?.local && (
        <Alert color="red" role="alert">
          {query.error.message}
        </Alert>
      )}
      {properties && (
        <ScrollArea.Autosize mah={320}>
          <Table withRowBorders={false} verticalSpacing={2} fz="sm">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">fid</Table.Th>
                <Table.Td>{pending?.local ? '' : selection.fid}</Table.Td>
              </Table.Tr>
              {Object.entries(properties).map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th scope="row" style={{ wordBreak: 'break-all' }}>
                    {name}
                  </Table.Th>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    {renderValue ? renderValue(name, value) : displayValue(value)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {actions}
    </Paper>
  );
}
