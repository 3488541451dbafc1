import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconTable } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MapLayer } from '@contract/map';
import { layerColour } from '../model/colours';

export interface LayerPanelProps {
  layers: readonly MapLayer[];
  visible: readonly string[];
  onToggle: (layer: string, visible: boolean) => void;
  /** Absent: no attribute tables (the embed page). */
  onOpenTable?: (layer: string) => void;
  /** More of a layer's actions, after its table (its export). */
  actions?: (layer: MapLayer) => ReactNode;
}

export const CANNOT_DRAW = 'Not drawn: its coordinate system is unknown';

/**
 * The layers of the GeoPackage (issue 19): each by name with a toggle in its colour, its
 * feature count and an 'Attribute table' button.
 */
export function LayerPanel({ layers, visible, onToggle, onOpenTable, actions }: LayerPanelProps) {
  if (layers.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No layers with features
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {layers.map((layer, index) => (
        <li key={layer.name}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            {/* A native checkbox in the layer's colour (see PlainSelect on why not Mantine's). */}
            <Group
              component="label"
              gap="xs"
              wrap="nowrap"
              style={{ cursor: layer.drawable ? 'pointer' : 'default', minWidth: 0 }}
            >
              <input
                type="checkbox"
                checked={visible.includes(layer.name)}
                disabled={!layer.drawable}
                onChange={(event) => onToggle(layer.name, event.currentTarget.checked)}
                style={{ accentColor: layerColour(index), width: 18, height: 18, flexShrink: 0 }}
              />
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {layer.name}
              </Text>
            </Group>
            <Badge
              variant="light"
              color="gray"
              aria-label={`${layer.feature_count} features`}
              title={`${layer.feature_count} features`}
            >
              {layer.feature_count}
            </Badge>
          </Group>
          {layer.title && layer.title !== layer.name && (
            <Text size="xs" c="dimmed" pl={30}>
              {layer.title}
            </Text>
          )}
          {!layer.drawable && (
            <Text size="xs" c="dimmed" pl={30}>
              {CANNOT_DRAW}
            </Text>
          )}
          {(onOpenTable || actions) && (
            <Group gap={4} ml={22}>
              {onOpenTable && (
                <Button
                  variant="subtle"
                  size="compact-xs"
                  leftSection={<IconTable size={14} aria-hidden />}
                  aria-label={`Attribute table of ${layer.name}`}
                  onClick={() => onOpenTable(layer.name)}
                >
                  Attribute table
                </Button>
              )}
              {actions?.(layer)}
            </Group>
          )}
        </li>
      ))}
    </Stack>
  );
}
