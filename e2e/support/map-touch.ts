// Touch gestures on the map's e2e tests (issue 19), sent through CDP as a touch screen sends
// them: every finger down, moved in steps, then all lifted.
import type { CDPSession } from '@playwright/test';

export interface TouchPoint {
  x: number;
  y: number;
}

/** Moves fingers from `from` to `to` (one point per finger) in `steps` moves. */
export async function touchGesture(
  cdp: CDPSession,
  from: readonly TouchPoint[],
  to: readonly TouchPoint[],
  steps = 10,
): Promise<void> {
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: readonly TouchPoint[]) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: points.map((p, id) => ({ ...p, id })),
    });
  await touch('touchStart', from);
  for (let step = 1; step <= steps; step++) {
    await touch(
      'touchMove',
      from.map((p, i) => ({
        x: p.x + ((to[i]!.x - p.x) * step) / steps,
        y: p.y + ((to[i]!.y - p.y) * step) / steps,
      })),
    );
  }
  await touch('touchEnd', []);
}
