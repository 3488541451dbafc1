import { describe, expect, it } from 'vitest';
import { CHANGE_COLOURS, featureColour, layerColour, withAlpha } from './colours';

describe('map colours', () => {
  it('gives the three kinds of change three different colours', () => {
    const colours = new Set(Object.values(CHANGE_COLOURS));
    expect(colours.size).toBe(3);
    expect(featureColour(0, 'insert')).toBe(CHANGE_COLOURS.insert);
    expect(featureColour(0, 'update')).toBe(CHANGE_COLOURS.update);
    expect(featureColour(0, 'delete')).toBe(CHANGE_COLOURS.delete);
  });

  it('draws unchanged features in their layer colour, never a change colour', () => {
    const changeColours = Object.values(CHANGE_COLOURS);
    for (let index = 0; index < 20; index++) {
      expect(featureColour(index, undefined)).toBe(layerColour(index));
      expect(changeColours).not.toContain(layerColour(index));
    }
    expect(layerColour(1)).not.toBe(layerColour(0));
    expect(layerColour(-1)).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('writes a colour with alpha', () => {
    expect(withAlpha('#1c7ed6', 0.25)).toBe('rgba(28, 126, 214, 0.25)');
  });
});
