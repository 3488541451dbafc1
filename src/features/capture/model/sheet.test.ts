import { describe, expect, it } from 'vitest';
import { recentreAt, scrollToShowMap, uncoveredPart } from './sheet';

// A 768 × 1024 tablet: header 60 px, the map 721 × 512 px, the sheet's top at 563 px.
const map = (top: number) => ({ top, bottom: top + 512, left: 16, right: 737 });

describe('scrollToShowMap', () => {
  it('scrolls a map running under the sheet up above it', () => {
    expect(scrollToShowMap(map(284), 60, 600)).toBe(284 + 512 - 600);
  });
  it('keeps the top of a map taller than the room under the header', () => {
    expect(scrollToShowMap(map(284), 60, 500)).toBe(224);
  });
  it('brings a map scrolled under the header back down, and leaves one in place', () => {
    expect(scrollToShowMap(map(20), 60, 600)).toBe(-40);
    expect(scrollToShowMap(map(70), 60, 600)).toBe(0);
  });
});

describe('uncoveredPart', () => {
  const screen = { top: 60, bottom: 1024 };
  it('is what the sheet leaves above it, in the map’s pixels', () => {
    const sheet = { top: 563, bottom: 1024, left: 16, right: 737 };
    expect(uncoveredPart(map(51), sheet, screen)).toEqual({
      top: 9,
      bottom: 512,
      left: 0,
      right: 721,
    });
  });
  it('is what a form beside the right edge leaves on its left', () => {
    const side = { top: 292, bottom: 788, left: 329, right: 729 };
    expect(uncoveredPart(map(284), side, screen)).toEqual({
      top: 0,
      bottom: 512,
      left: 0,
      right: 313,
    });
  });
  it('is the whole visible map when the form does not cover it', () => {
    expect(uncoveredPart(map(284), null, screen)).toEqual({
      top: 0,
      bottom: 512,
      left: 0,
      right: 721,
    });
    expect(uncoveredPart(map(-600), null, screen)).toBeNull();
  });
});

describe('recentreAt', () => {
  const part = { top: 9, bottom: 512, left: 0, right: 721 };
  it('leaves a feature well inside the uncovered part where it is', () => {
    expect(recentreAt([300, 400], part)).toBeNull();
  });
  it('moves a covered feature, or one at the edge, to the middle of the uncovered part', () => {
    expect(recentreAt([300, 600], part)).toEqual([360.5, 260.5]);
    expect(recentreAt([300, 500], part)).toEqual([360.5, 260.5]);
    expect(recentreAt([710, 200], part)).toEqual([360.5, 260.5]);
  });
});
