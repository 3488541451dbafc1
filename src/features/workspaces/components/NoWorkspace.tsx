import { Button, Group, Stack, Text } from '@mantine/core';
import { ButtonLink } from '../../../lib/routerLinks';

export const NO_WORKSPACE_TITLE = 'You are not a member of any workspace yet';
export const NO_WORKSPACE_TEXT =
  'Ask an administrator of your team to add you to a workspace. Until then you can manage your account in your profile.';

/** Shown in the onboarding layout on pages that need a workspace, to users who have none. */
export function NoWorkspace({ onSignOut }: { onSignOut: () => void }) {
  return (
    <Stack gap="lg" ta="center" align="center">
      <Text>{NO_WORKSPACE_TEXT}</Text>
      <Group justify="center" gap="sm">
        <ButtonLink to="/profile">Your profile</ButtonLink>
        <Button variant="default" onClick={onSignOut}>
          Sign out
        </Button>
      </Group>
    </Stack>
  );
}
