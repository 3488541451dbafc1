import { Button, Group, Paper, Text } from '@mantine/core';
import { canFinish, type DrawState } from '../model/drawing';
import {
  CANCEL_DRAWING,
  FINISH,
  UNDO_VERTEX,
  USE_MY_LOCATION,
  drawHint,
  newFeatureTitle,
  vertexCount,
} from '../model/texts';

export interface DrawBarProps {
  layer: string;
  draw: DrawState;
  /** What 'Use my location' last said (accuracy, or why not). */
  location: string | null;
  onLocate: () => void;
  onUndo: () => void;
  onFinish: () => void;
  onCancel: () => void;
}

/**
 * The bar over the map while a new feature is drawn: what to do, the vertices so far, 'Use my
 * location' (with the position's accuracy), and for lines and polygons 'Undo last vertex' and
 * 'Finish'. Every button is reachable by keyboard; Enter on the focused map adds a vertex at
 * its centre mark.
 */
export function DrawBar({
  layer,
  draw,
  location,
  onLocate,
  onUndo,
  onFinish,
  onCancel,
}: DrawBarProps) {
  const many = draw.kind !== 'point';
  return (
    <Paper
      component="section"
      aria-label={newFeatureTitle(layer)}
      withBorder
      shadow="md"
      p="xs"
      style={{
        position: 'absolute',
        top: 8,
        left: 48,
        right: 8,
        zIndex: 3,
        maxWidth: 560,
      }}
    >
      <Text size="sm" fw={600}>
        {newFeatureTitle(layer)}
      </Text>
      <Text size="sm">{drawHint(draw.kind)}</Text>
      <Text size="sm" role="status" c="dimmed">
        {many ? vertexCount(draw.vertices.length) : ''}
        {location ? `${many ? ' · ' : ''}${location}` : ''}
      </Text>
      <Group gap="xs" mt={6}>
        <Button size="compact-sm" variant="default" onClick={onLocate}>
          {USE_MY_LOCATION}
        </Button>
        {many && (
          <>
            <Button
              size="compact-sm"
              variant="default"
              onClick={onUndo}
              disabled={draw.vertices.length === 0}
            >
              {UNDO_VERTEX}
            </Button>
            <Button size="compact-sm" onClick={onFinish} disabled={!canFinish(draw)}>
              {FINISH}
            </Button>
          </>
        )}
        <Button size="compact-sm" variant="subtle" onClick={onCancel}>
          {CANCEL_DRAWING}
        </Button>
      </Group>
    </Paper>
  );
}
