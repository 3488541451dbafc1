import { Box, Center, Container, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from './Logo';
import { MaintenanceBanner } from './MaintenanceBanner';

export interface OnboardingLayoutProps {
  /** Header area above the content (e.g. a page title). */
  header?: ReactNode;
  /** Optional side panel, shown from medium screens up. */
  side?: ReactNode;
  maintenance?: boolean;
  children: ReactNode;
}

/**
 * Layout of the pages before the user works in a workspace (sign-in, password reset, email
 * confirmation): logo on top, a centred content column of at most 480px (spec 000 §2 and §9).
 */
export function OnboardingLayout({ header, side, maintenance, children }: OnboardingLayoutProps) {
  return (
    <Group align="stretch" gap={0} wrap="nowrap" mih="100dvh">
      {side && (
        <Box visibleFrom="md" w="40%" maw={560} bg="var(--mantine-color-blue-light)" p="xl">
          {side}
        </Box>
      )}
      <Center style={{ flex: 1 }} py="xl" px="md">
        <Container w="100%" maw={480} p={0}>
          <Stack gap="lg">
            <Center>
              <Logo size={40} />
            </Center>
            {maintenance && <MaintenanceBanner />}
            {header}
            {children}
          </Stack>
        </Container>
      </Center>
    </Group>
  );
}
