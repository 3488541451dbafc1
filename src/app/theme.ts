import { createTheme } from '@mantine/core';

/** Breakpoints of the specification (spec 000 §9), in px. */
export const SIDEBAR_OVERLAY_BREAKPOINT = 1200;
export const MENU_BREAKPOINT = 960;

export const theme = createTheme({
  primaryColor: 'blue',
  // blue.7 is the brand colour #1c7ed6 (manifest theme_color, icons).
  primaryShade: 7,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
});
