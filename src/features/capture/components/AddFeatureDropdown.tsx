import { Menu } from '@mantine/core';
import type { LazyMenuTarget } from '@/components/lazyMenu';

export interface AddFeatureMenuProps {
  /** The layers one may add features to: their name and table. */
  layers: ReadonlyArray<{ name: string; table: string }>;
  onChoose: (table: string) => void;
}

/** The 'Add feature' menu: one item per editable layer (loaded on first use, lazyMenu). */
export function AddFeatureDropdown({
  layers,
  onChoose,
  target,
}: AddFeatureMenuProps & LazyMenuTarget) {
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {layers.map((layer) => (
          <Menu.Item key={layer.table} onClick={() => onChoose(layer.table)}>
            {layer.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
