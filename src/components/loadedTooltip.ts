/** Mantine's Tooltip on its own, for `lazyTooltip.tsx` to load on first hover. */
export { Tooltip } from '@mantine/core';
