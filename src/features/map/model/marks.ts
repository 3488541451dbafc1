/** Performance mark set once the map's first frame with features is drawn (bench/map-browser). */
export const FIRST_FEATURES_MARK = 'waymark:map-first-features';
