import {
  createTheme,
  type CSSVariablesResolver,
  type MantineThemeComponent,
  type MenuProps,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core';

/** Breakpoints of the specification (spec 000 §9), in px. */
export const SIDEBAR_OVERLAY_BREAKPOINT = 1200;
export const MENU_BREAKPOINT = 960;

/**
 * Stacking: the dialog mask sits at z-index 7 (spec 000 §9), so the shell's header and sidebar
 * stay below it, and so does the side panel (dialogs open from it); menus, tooltips, drawers and toasts keep Mantine's higher defaults.
 */
export const SHELL_Z_INDEX = 5;
export const SIDE_PANEL_Z_INDEX = 6;
export const DIALOG_Z_INDEX = 7;

/**
 * A component's theme defaults, typed by its props. Plain objects instead of `Menu.extend(...)`:
 * `extend` only returns its argument, but calling it would pull Menu, Modal and their floating
 * and scroll code into the entry chunk of every page.
 */
function defaults<Props>(defaultProps: Partial<Props>): MantineThemeComponent {
  return { defaultProps };
}

export const theme = createTheme({
  primaryColor: 'blue',
  // blue.8 (#1971c2) keeps white button text and links above the 4.5:1 contrast of WCAG AA;
  // the brand blue.7 (#1c7ed6, manifest theme_color, icons) reaches only 4.2:1.
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  components: {
    // Mantine's icon-only close buttons have no name of their own.
    Notification: defaults<NotificationProps>({
      closeButtonProps: { 'aria-label': 'Close notification' },
    }),
    Modal: defaults<ModalProps>({ closeButtonProps: { 'aria-label': 'Close' } }),
    // The focus placeholder is a tabindex element inside role="menu", which a menu may not own
    // (axe aria-required-children); the first item takes the focus instead.
    Menu: defaults<MenuProps>({ withInitialFocusPlaceholder: false }),
  },
});

/** Dimmed text in gray.7: Mantine's gray.6 is only 3.3:1 on white. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
