import { Box, Center, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from './Logo';
import { MaintenanceBanner } from './MaintenanceBanner';

/** Width of the content column (spec 000 §9: onboarding content max width 480px). */
export const ONBOARDING_MAX_WIDTH = 480;

export interface OnboardingLayoutProps {
  /** The page heading (h1) at the top of the header area. */
  title?: string;
  /** More of the header area below the title (e.g. an explanation). */
  header?: ReactNode;
  /** Optional side panel, shown from medium screens up. */
  side?: ReactNode;
  maintenance?: boolean;
  children: ReactNode;
}

/**
 * Layout of the pages before the user works in a workspace (sign-in, password reset, email
 * confirmation, no workspace yet; spec 000 §2): the logo on top, an optional side panel from
 * medium screens up, a header area and a centred content column of at most 480px.
 */
export function OnboardingLayout({
  title,
  header,
  side,
  maintenance,
  children,
}: OnboardingLayoutProps) {
  return (
    <Group align="stretch" gap={0} wrap="nowrap" mih="100dvh">
      {side && (
        <Box
          component="aside"
          visibleFrom="md"
          w="40%"
          maw={560}
          bg="var(--mantine-color-blue-light)"
          p="xl"
        >
          {side}
        </Box>
      )}
      <Center component="main" style={{ flex: 1 }} py="xl" px="md">
        <Container w="100%" maw={ONBOARDING_MAX_WIDTH} p={0}>
          <Stack gap="lg">
            <Center>
              <Logo size={40} />
            </Center>
            {maintenance && <MaintenanceBanner />}
            {(title || header) && (
              <Stack gap={6} ta="center" data-testid="onboarding-header">
                {title && (
                  <Title order={1} fz="h3">
                    {title}
                  </Title>
                )}
                {typeof header === 'string' ? <Text c="dimmed">{header}</Text> : header}
              </Stack>
            )}
            {children}
          </Stack>
        </Container>
      </Center>
    </Group>
  );
}
