import { Center, Stack, Text, Title } from '@mantine/core';
import { IconMapPinOff } from '@tabler/icons-react';
import { ButtonLink } from '@/lib/routerLinks';

export const EXPLORE_PROJECTS = 'Explore public projects';

/** Unknown routes (spec 000 §2 "Not found page"). */
export function NotFoundPage({ loggedIn }: { loggedIn: boolean }) {
  return (
    <Center component="main" mih="70dvh" p="md">
      <Stack align="center" gap="md" maw={520} ta="center">
        <IconMapPinOff size={64} stroke={1.3} color="var(--mantine-color-blue-7)" aria-hidden />
        <Title order={1} fz="h2">
          Ooops, it seems the GPS has lost its way.
        </Title>
        <Text c="dimmed">This page does not exist, check your url for mistakes, please.</Text>
        {loggedIn ? (
          <ButtonLink to="/dashboard">Back to Dashboard</ButtonLink>
        ) : (
          // A visitor has no dashboard: public projects are where the app starts for them.
          <ButtonLink to="/projects/explore">{EXPLORE_PROJECTS}</ButtonLink>
        )}
      </Stack>
    </Center>
  );
}
