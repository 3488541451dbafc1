import { Box, Collapse, Group, Paper, Title, UnstyledButton, type TitleOrder } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';

export interface CollapsibleSectionProps {
  title: ReactNode;
  /** 'banner': a tinted strip (e.g. hints); 'panel': a bordered panel. @default 'panel' */
  variant?: 'banner' | 'panel';
  /** Whether it starts expanded. @default true */
  defaultExpanded?: boolean;
  /** Heading level of the title. @default 2 */
  order?: TitleOrder;
  /** Content beside the title that stays visible when collapsed. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * A banner section or panel that collapses and expands (spec 000 §2 and §4). The title is a
 * disclosure button inside a heading, so the section stays in the page's heading outline.
 */
export function CollapsibleSection({
  title,
  variant = 'panel',
  defaultExpanded = true,
  order = 2,
  actions,
  children,
}: CollapsibleSectionProps) {
  const [expanded, { toggle }] = useDisclosure(defaultExpanded);
  const bodyId = useId();
  const banner = variant === 'banner';
  return (
    <Paper
      component="section"
      withBorder={!banner}
      bg={banner ? 'var(--mantine-color-blue-light)' : undefined}
      radius="md"
      p="sm"
      mb="lg"
      data-variant={variant}
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Title order={order} fz="h5" style={{ flex: 1, minWidth: 0 }}>
          <UnstyledButton
            onClick={toggle}
            aria-expanded={expanded}
            aria-controls={bodyId}
            w="100%"
            style={{ display: 'flex', alignItems: 'center', gap: 8, font: 'inherit' }}
          >
            <IconChevronDown
              size={18}
              aria-hidden
              style={{
                transform: expanded ? 'none' : 'rotate(-90deg)',
                transition: 'transform 150ms ease',
                flexShrink: 0,
              }}
            />
            <span>{title}</span>
          </UnstyledButton>
        </Title>
        {actions}
      </Group>
      <Collapse expanded={expanded} id={bodyId}>
        <Box pt="sm">{children}</Box>
      </Collapse>
    </Paper>
  );
}
