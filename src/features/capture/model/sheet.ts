/**
 * Where the feature form sits and what it leaves of the map (issue 34: at 768 px the form over
 * the map's right half hid the point being placed or edited). On narrow screens the form is a
 * sheet at the bottom of the screen, below the map in the page's flow and held at the screen's
 * bottom (`position: sticky`), a bounded share of the height; the page scrolls so the map sits
 * between the header and the sheet, and the map recentres on the edited feature when it is
 * still covered. Wider, the form stays beside the map's right edge over it, with the same
 * recentring. Pure rules, unit-tested; the hook measures and applies them.
 */

/** The sheet's height: this share of the screen's, within these bounds (CSS). */
export const SHEET_HEIGHT_CSS = 'clamp(280px, 45dvh, 560px)';
/** A finger's target: the form's buttons, inputs and tabs are at least this tall (px). */
export const TOUCH_TARGET = 44;
/** How far inside the uncovered map the edited feature's centre must be (px). */
export const IN_VIEW_MARGIN = 32;

/** A box in page (viewport) pixels. */
export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * How far to scroll the page (px, positive: down) so the map sits between the header's bottom
 * and the sheet's top; a map taller than that room keeps its top under the header.
 */
export function scrollToShowMap(map: Box, headerBottom: number, sheetTop: number): number {
  const room = sheetTop - headerBottom;
  if (map.bottom - map.top > room) return map.top - headerBottom;
  if (map.bottom > sheetTop) return map.bottom - sheetTop;
  if (map.top < headerBottom) return map.top - headerBottom;
  return 0;
}

/**
 * The part of the map (in the map's own pixels, from its top left corner) that neither the
 * header above it, the screen's edges nor the form cover: the larger of what is left above
 * the form and what is left beside it (the form covers the map's bottom or its right side).
 * Null when nothing is left.
 */
export function uncoveredPart(
  map: Box,
  form: Box | null,
  screen: { top: number; bottom: number },
): Box | null {
  const top = Math.max(map.top, screen.top);
  const bottom = Math.min(map.bottom, screen.bottom);
  const candidates: Box[] = [];
  const overlaps =
    form !== null &&
    form.left < map.right &&
    form.right > map.left &&
    form.top < bottom &&
    form.bottom > top;
  if (!overlaps) candidates.push({ top, bottom, left: map.left, right: map.right });
  else {
    candidates.push({ top, bottom: Math.min(bottom, form.top), left: map.left, right: map.right });
    candidates.push({ top, bottom, left: map.left, right: Math.min(map.right, form.left) });
  }
  const area = (box: Box) => Math.max(0, box.bottom - box.top) * Math.max(0, box.right - box.left);
  const best = candidates.reduce((a, b) => (area(b) > area(a) ? b : a));
  if (area(best) === 0) return null;
  return {
    top: best.top - map.top,
    bottom: best.bottom - map.top,
    left: best.left - map.left,
    right: best.right - map.left,
  };
}

/**
 * Where on the map (its pixels) the edited feature's centre at `pixel` should be moved: the
 * middle of the uncovered part when the centre is not well inside it, else null (the map
 * stays).
 */
export function recentreAt(
  pixel: readonly [number, number],
  part: Box,
  margin = IN_VIEW_MARGIN,
): [number, number] | null {
  const [x, y] = pixel;
  const inset = (low: number, high: number) => Math.min(margin, (high - low) / 2);
  const dx = inset(part.left, part.right);
  const dy = inset(part.top, part.bottom);
  const inside =
    x >= part.left + dx && x <= part.right - dx && y >= part.top + dy && y <= part.bottom - dy;
  if (inside) return null;
  return [(part.left + part.right) / 2, (part.top + part.bottom) / 2];
}
