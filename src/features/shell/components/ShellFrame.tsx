/**
 * What Mantine's `<AppShell mode="fixed">` renders for the app's layout (a header, a navbar
 * docked from a breakpoint and a main area; no aside, footer or resizing), element for element:
 * the same classes (AppShell's stylesheet), data attributes, CSS variables and media styles, and
 * transitions paused while the window is resized. Mantine's AppShell also brings its media-style
 * generator for every section, its resize handles and their hooks: ~6 KB gzipped on every screen
 * with the shell (issue 8's bundle budget). ShellFrame.test.tsx renders both and compares them.
 */
import '@mantine/core/styles/AppShell.css';
import {
  Box,
  InlineStyles,
  ScrollArea,
  rem,
  useMantineContext,
  type BoxProps,
} from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { RemoveScroll } from '@/lib/removeScrollClassNames';

/** AppShell's class names (its stylesheet's); ShellFrame.test.tsx checks them against Mantine's. */
export const APP_SHELL_CLASSES = {
  root: 'm_89ab340',
  header: 'm_3b16f56b',
  navbar: 'm_45252eee',
  main: 'm_8983817',
  section: 'm_6dcfc7c7',
} as const;

const TRANSITION_DURATION = 200;

export interface ShellNavbar {
  width: number;
  /** From this width (em) the navbar is docked; below it, it is hidden off-screen. */
  breakpointEm: number;
  /** Hidden while docked (the navbar can be closed above the breakpoint). */
  collapsedDocked: boolean;
  /** Mantine's `visibleFrom` for the navbar element. */
  visibleFrom?: BoxProps['visibleFrom'];
  /** The navbar's padding (Mantine spacing). */
  padding?: BoxProps['p'];
  /** In a section that grows and scrolls (Mantine's ScrollArea), as `AppShell.Section grow`. */
  children: ReactNode;
}

export interface ShellFrameProps {
  headerHeight: number;
  /** Mantine spacing of the main area. */
  padding: string;
  zIndex: number;
  header: ReactNode;
  navbar?: ShellNavbar;
  children: ReactNode;
}

/** AppShell's media styles (its getVariables) for a header, an optional navbar and padding. */
function shellVariables({ headerHeight, padding, navbar }: ShellFrameProps) {
  const baseStyles: Record<string, string> = {};
  const media: Array<{ query: string; styles: Record<string, string> }> = [];
  if (navbar) {
    baseStyles['--app-shell-navbar-width'] = rem(navbar.width);
    baseStyles['--app-shell-navbar-offset'] = rem(navbar.width);
    const hidden = {
      '--app-shell-navbar-transform': 'translateX(calc(var(--app-shell-navbar-width) * -1))',
      '--app-shell-navbar-transform-rtl': 'translateX(var(--app-shell-navbar-width))',
    };
    if (navbar.collapsedDocked) {
      media.push({
        query: `(min-width: ${navbar.breakpointEm}em)`,
        styles: { ...hidden, '--app-shell-navbar-offset': '0px !important' },
      });
    }
    // Mantine's "smaller than": the breakpoint less 0.1px.
    media.push({
      query: `(max-width: ${navbar.breakpointEm - 0.1 / 16}em)`,
      styles: {
        '--app-shell-navbar-width': '100%',
        '--app-shell-navbar-offset': '0px',
        ...hidden,
      },
    });
  }
  baseStyles['--app-shell-header-height'] = rem(headerHeight);
  baseStyles['--app-shell-header-offset'] = rem(headerHeight);
  baseStyles['--app-shell-padding'] = `var(--mantine-spacing-${padding})`;
  return { baseStyles, media };
}

/** AppShell's use-resizing: transitions are off on mount and while the window is resized. */
function useResizing(): boolean {
  const [resizing, setResizing] = useState(true);
  const timeout = useRef(-1);
  useWindowEvent('resize', () => {
    setResizing(true);
    window.clearTimeout(timeout.current);
    timeout.current = window.setTimeout(() => startTransition(() => setResizing(false)), 200);
  });
  useEffect(() => {
    const settled = window.setTimeout(
      () => startTransition(() => setResizing(false)),
      TRANSITION_DURATION,
    );
    return () => window.clearTimeout(settled);
  }, []);
  return resizing;
}

export function ShellFrame(props: ShellFrameProps) {
  const { header, navbar, zIndex, children } = props;
  const { cssVariablesSelector } = useMantineContext();
  const resizing = useResizing();
  const { baseStyles, media } = shellVariables(props);
  return (
    <>
      <InlineStyles media={media} styles={baseStyles} selector={cssVariablesSelector} />
      <Box
        className={`${APP_SHELL_CLASSES.root} mantine-AppShell-root`}
        mod={{ resizing, mode: 'fixed' }}
        __vars={{
          '--app-shell-transition-duration': `${TRANSITION_DURATION}ms`,
          '--app-shell-transition-timing-function': 'ease',
        }}
      >
        <Box
          component="header"
          className={`${APP_SHELL_CLASSES.header} mantine-AppShell-header ${RemoveScroll.classNames.zeroRight}`}
          mod={{ 'with-border': true }}
          __vars={{ '--app-shell-header-z-index': String(zIndex) }}
        >
          {header}
        </Box>
        {navbar && (
          <Box
            component="nav"
            className={`${APP_SHELL_CLASSES.navbar} mantine-AppShell-navbar`}
            mod={{ 'with-border': true }}
            __vars={{ '--app-shell-navbar-z-index': `calc(${zIndex} + 1)` }}
            p={navbar.padding}
            visibleFrom={navbar.visibleFrom}
          >
            <ScrollArea
              className={`${APP_SHELL_CLASSES.section} mantine-AppShell-section`}
              mod={{ grow: true }}
            >
              {navbar.children}
            </ScrollArea>
          </Box>
        )}
        <Box component="main" className={`${APP_SHELL_CLASSES.main} mantine-AppShell-main`}>
          {children}
        </Box>
      </Box>
    </>
  );
}
