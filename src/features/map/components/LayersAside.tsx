/** The 'Layers' panel beside the map (wide screens), as tall as the map and scrolling on its own. */
import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LAYER_PANEL_WIDTH, mapHeightCss } from '../model/layout';

export function LayersAside({ narrow, children }: { narrow: boolean; children: ReactNode }) {
  return (
    <Paper
      component="aside"
      aria-label="Layers"
      withBorder
      p="sm"
      w={LAYER_PANEL_WIDTH}
      style={{ flexShrink: 0, overflowY: 'auto', maxHeight: mapHeightCss(narrow) }}
    >
      <Text fw={600} size="sm" mb="xs">
        Layers
      </Text>
      {children}
    </Paper>
  );
}
