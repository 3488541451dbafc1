import { RemoveScroll as Real } from 'react-remove-scroll';
import { describe, expect, it } from 'vitest';
import { RemoveScroll } from './removeScrollClassNames';

describe('RemoveScroll class names for AppShell', () => {
  it("are react-remove-scroll's own", () => {
    expect(RemoveScroll.classNames).toEqual(Real.classNames);
  });
});
