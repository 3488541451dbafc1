import { Group, Paper, Title, type TitleOrder } from '@mantine/core';
import { useId, type ReactNode } from 'react';

export interface TitledSectionProps {
  title: ReactNode;
  /** Buttons or menus on the right of the header. */
  actions?: ReactNode;
  /** Heading level of the title, so headings stay in order on each page. @default 2 */
  order?: TitleOrder;
  /** Draws the section as a bordered card. @default true */
  withBorder?: boolean;
  children?: ReactNode;
}

/** A section with a header (title and header actions) and a body (spec 000 §2). */
export function TitledSection({
  title,
  actions,
  order = 2,
  withBorder = true,
  children,
}: TitledSectionProps) {
  const id = useId();
  return (
    <Paper
      component="section"
      aria-labelledby={id}
      withBorder={withBorder}
      p={withBorder ? 'md' : 0}
      radius="md"
      mb="lg"
    >
      <Group justify="space-between" align="center" gap="sm" mb="sm" wrap="wrap">
        <Title id={id} order={order} fz="h4">
          {title}
        </Title>
        {actions && (
          <Group gap="xs" wrap="nowrap">
            {actions}
          </Group>
        )}
      </Group>
      {children}
    </Paper>
  );
}
