/**
 * Where the map sits on the Map tab (MapPage lays it out with these): beside the layer panel,
 * or alone above a 'Layers' drawer button on narrow screens. The first tiles' prefetch
 * (preload.ts) reads the map's size from them before the tab has opened.
 */

/** Narrow screens (768 px and below): the layer panel is a drawer. */
export const NARROW_MEDIA = '(max-width: 48em)';
/** The layer panel's width beside the map, and the gap between them (px). */
export const LAYER_PANEL_WIDTH = 280;
export const MAP_PANEL_GAP = 12;
/** The map's height: this share of the viewport's, within these bounds (px). */
export const MAP_HEIGHT_SHARE = 0.7;
/**
 * On narrow screens a smaller share: a finger pans the map, so the page is scrolled on what is
 * left of the screen around it (issue 31: at 768 px the map took the whole height).
 */
export const NARROW_MAP_HEIGHT_SHARE = 0.5;
export const MAP_MAX_HEIGHT = 640;
export const MAP_MIN_HEIGHT = 320;

const share = (narrow: boolean) => (narrow ? NARROW_MAP_HEIGHT_SHARE : MAP_HEIGHT_SHARE);

/** The map's CSS height (MapPage). */
export const mapHeightCss = (narrow: boolean) =>
  `min(${share(narrow) * 100}vh, ${MAP_MAX_HEIGHT}px)`;

/** The map's size in px ([width, height]) in a content area `contentWidth` wide. */
export function mapSize(
  contentWidth: number,
  viewportHeight: number,
  narrow: boolean,
): [number, number] {
  const width = narrow ? contentWidth : contentWidth - LAYER_PANEL_WIDTH - MAP_PANEL_GAP;
  const height = Math.max(MAP_MIN_HEIGHT, Math.min(share(narrow) * viewportHeight, MAP_MAX_HEIGHT));
  return [Math.max(0, Math.round(width)), Math.round(height)];
}

/**
 * The feature form's sheet below the map on narrow screens (issue 34, features/capture): the
 * height the map leaves under the page's header, so the map fits between them, at least
 * 280 px and at most 60 % of the screen.
 */
export const formSheetHeightCss = () =>
  `clamp(280px, calc(100dvh - var(--app-shell-header-offset, 0px) - ${mapHeightCss(true)}), 60dvh)`;
