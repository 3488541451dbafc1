/**
 * `useMergeRefs` of @floating-ui/react for Mantine's ScrollArea, its only import from
 * floating-ui, which otherwise puts all of floating-ui (~13 KB gzipped, only needed by menus,
 * popovers and tooltips) in the chunk of any screen with a scroll area. The build points
 * ScrollArea's import here (vite.config.ts `shellWithoutFloatingCode`); it merges the refs with
 * Mantine's own `useMergedRef`.
 */
import { useMergedRef } from '@mantine/hooks';
import type { Ref, RefCallback } from 'react';

export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): RefCallback<T> {
  return useMergedRef(...refs);
}
