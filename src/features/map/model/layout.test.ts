import { describe, expect, it } from 'vitest';
import {
  LAYER_PANEL_WIDTH,
  MAP_MAX_HEIGHT,
  MAP_MIN_HEIGHT,
  MAP_PANEL_GAP,
  mapSize,
} from './layout';

describe('the map’s size on the Map tab', () => {
  it('is the content beside the layer panel, 70 % of the viewport high within bounds', () => {
    expect(mapSize(1200, 800, false)).toEqual([1200 - LAYER_PANEL_WIDTH - MAP_PANEL_GAP, 560]);
    expect(mapSize(1200, 1400, false)[1]).toBe(MAP_MAX_HEIGHT);
    expect(mapSize(1200, 300, false)[1]).toBe(MAP_MIN_HEIGHT);
  });

  it('is the whole content width on narrow screens (the panel is a drawer), half the viewport high', () => {
    // Issue 31: a finger pans the map; the page scrolls on the rest of the screen.
    expect(mapSize(740, 1024, true)).toEqual([740, 512]);
  });
});
