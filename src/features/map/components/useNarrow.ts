import { useMediaQuery } from '@mantine/hooks';
import { NARROW_MEDIA } from '../model/layout';

/**
 * Whether the map is laid out for a narrow screen (model/layout.ts), right from the first
 * render: the map is made and fitted to the data in its first effects, at the size that render
 * gave it, and its first tiles are asked for at that size. Mantine's default (false until an
 * effect reads the media query) made the map at 768 px first beside a layer panel at 70 % of
 * the height, fitted there, then shrunk to half the height with the trees out of sight and the
 * tiles fetched ahead for the final size not matching (issue 31).
 */
export const useNarrow = (): boolean =>
  useMediaQuery(NARROW_MEDIA, undefined, { getInitialValueInEffect: false }) === true;
