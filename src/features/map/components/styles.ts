/**
 * How features are drawn: one style per colour (a circle for points, a line, a translucent
 * fill for polygons), made once and shared by every feature of that colour.
 */
import { Circle, Fill, Stroke, Style } from 'ol/style';
import { layerColour, withAlpha } from '../model/colours';

const styles = new Map<string, Style>();

/** The style of features drawn in `colour` (`#rrggbb`). */
export function styleOf(colour: string): Style {
  let style = styles.get(colour);
  if (!style) {
    style = new Style({
      image: new Circle({
        radius: 6,
        fill: new Fill({ color: colour }),
        stroke: new Stroke({ color: '#ffffff', width: 1.5 }),
      }),
      fill: new Fill({ color: withAlpha(colour, 0.3) }),
      stroke: new Stroke({ color: colour, width: 2 }),
    });
    styles.set(colour, style);
  }
  return style;
}

/**
 * Draws the point images of the first `count` layers' styles ahead (and their hit detection
 * images), which the first frame with points would otherwise draw first.
 */
export function prepareStyles(count: number): void {
  for (let index = 0; index < count; index++) {
    const image = styleOf(layerColour(index)).getImage();
    image?.getImage(globalThis.devicePixelRatio || 1);
    image?.getHitDetectionImage();
  }
}
