/**
 * What Mantine's `<NavLink component={Link}>` renders for a sidebar entry without nested entries
 * (the same elements, classes and data attributes; its stylesheet is imported as before),
 * without NavLink's collapsible children and their animation hooks (~1.5 KB gzipped on every
 * screen with the shell, issue 8's bundle budget). SidebarLink.test.tsx renders both and
 * compares them.
 */
import '@mantine/core/styles/NavLink.css';
import { Box, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { CSSProperties, ReactNode } from 'react';

/** NavLink's class names (its stylesheet's); SidebarLink.test.tsx checks them against Mantine's. */
export const NAV_LINK_CLASSES = {
  root: 'm_f0824112',
  section: 'm_690090b5',
  body: 'm_f07af9d2',
  label: 'm_1f6ac4c4',
  description: 'm_57492dcc',
} as const;

export interface SidebarLinkProps {
  /** The path: '/dashboard', '/projects', '/outbox' or '/workspaces/{name}/members'. */
  to: string;
  label: string;
  leftSection: ReactNode;
  active: boolean;
  onClick?: () => void;
  style?: CSSProperties;
  /** After the label (NavLink's right section), e.g. a count. */
  rightSection?: ReactNode;
}

export function SidebarLink({
  to,
  label,
  leftSection,
  active,
  onClick,
  style,
  rightSection,
}: SidebarLinkProps) {
  return (
    <UnstyledButton
      component={Link}
      to={to}
      className={`${NAV_LINK_CLASSES.root} mantine-NavLink-root`}
      mod={{ active }}
      aria-current={active ? 'page' : undefined}
      onClick={onClick}
      style={style}
    >
      <Box
        component="span"
        className={`${NAV_LINK_CLASSES.section} mantine-NavLink-section`}
        mod={{ position: 'left' }}
      >
        {leftSection}
      </Box>
      <Box className={`${NAV_LINK_CLASSES.body} mantine-NavLink-body`}>
        <Box component="span" className={`${NAV_LINK_CLASSES.label} mantine-NavLink-label`}>
          {label}
        </Box>
        <Box
          component="span"
          className={`${NAV_LINK_CLASSES.description} mantine-NavLink-description`}
          mod={{ active }}
        />
      </Box>
      {rightSection !== undefined && (
        <Box
          component="span"
          className={`${NAV_LINK_CLASSES.section} mantine-NavLink-section`}
          mod={{ position: 'right' }}
        >
          {rightSection}
        </Box>
      )}
    </UnstyledButton>
  );
}
