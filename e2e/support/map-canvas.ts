// What the map's canvases drew, read back in the page (issue 19's map e2e tests).
import type { Page } from '@playwright/test';

/** [r, g, b] drawn at a page position: the topmost opaque canvas of the map there, or null. */
export function colourAtPoint(page: Page, x: number, y: number): Promise<number[] | null> {
  // A string, as the page runs it.
  return page.evaluate<number[] | null>(`(() => {
    let found = null;
    for (const canvas of document.querySelectorAll('[aria-roledescription="map"] canvas')) {
      const rect = canvas.getBoundingClientRect();
      if (${x} < rect.left || ${y} < rect.top || ${x} >= rect.right || ${y} >= rect.bottom) continue;
      const px = Math.floor(((${x} - rect.left) * canvas.width) / rect.width);
      const py = Math.floor(((${y} - rect.top) * canvas.height) / rect.height);
      const data = canvas.getContext('2d').getImageData(px, py, 1, 1).data;
      if (data[3] > 200) found = [data[0], data[1], data[2]];
    }
    return found;
  })()`);
}
