import { Box, Drawer, Group, useMatches } from '@mantine/core';
import { useState, type ReactNode, type UIEvent } from 'react';
import { SIDE_PANEL_Z_INDEX } from '@/theme/theme';

/** Widths of the side panel (spec 000 §2): 11/12 on small, 5/12 on large, 3/12 on extra-large. */
export const SIDE_PANEL_WIDTHS = {
  base: `${(11 / 12) * 100}%`,
  lg: `${(5 / 12) * 100}%`,
  xl: `${(3 / 12) * 100}%`,
} as const;

export interface SidePanelProps {
  opened: boolean;
  onClose: () => void;
  /** Shown in the header once the body is scrolled; always the panel's accessible name. */
  title: string;
  /** Content at the top of the body (e.g. a large title and badges) that scrolls away. */
  header?: ReactNode;
  /** Actions pinned to the bottom. */
  footer?: ReactNode;
  children: ReactNode;
}

/**
 * The right-hand slide-in panel (spec 000 §2): close button, a title that appears once the
 * content is scrolled, and header, body and footer areas.
 */
export function SidePanel({ opened, onClose, title, header, footer, children }: SidePanelProps) {
  const size = useMatches(SIDE_PANEL_WIDTHS);
  const [scrolled, setScrolled] = useState(false);
  const onScroll = (event: UIEvent<HTMLDivElement>) =>
    setScrolled(event.currentTarget.scrollTop > 0);

  return (
    <Drawer.Root
      opened={opened}
      onClose={onClose}
      position="right"
      size={size}
      zIndex={SIDE_PANEL_Z_INDEX}
      onExitTransitionEnd={() => setScrolled(false)}
    >
      <Drawer.Overlay />
      <Drawer.Content>
        {/* The column is a box of its own: a style on Drawer.Content also lands on the drawer's
            positioning container and turns it into a column, which put the panel bottom-left. */}
        <Box style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
          <Drawer.Header
            style={{
              borderBottom: scrolled ? '1px solid var(--mantine-color-default-border)' : undefined,
            }}
          >
            <Drawer.Title
              data-visible={scrolled || undefined}
              style={{
                opacity: scrolled ? 1 : 0,
                transition: 'opacity 150ms ease',
                fontWeight: 600,
                minWidth: 0,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
            >
              {title}
            </Drawer.Title>
            <Drawer.CloseButton aria-label="Close" />
          </Drawer.Header>
          <Box
            data-testid="side-panel-body"
            onScroll={onScroll}
            px="md"
            pb="md"
            style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
          >
            {header && <Box mb="md">{header}</Box>}
            {children}
          </Box>
          {footer && (
            <Group
              justify="flex-end"
              gap="sm"
              p="md"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              {footer}
            </Group>
          )}
        </Box>
      </Drawer.Content>
    </Drawer.Root>
  );
}
