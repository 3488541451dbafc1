import { Button, Group, Stack, Text } from '@mantine/core';
import { ButtonLink } from '@/lib/routerLinks';
import { useConfirmedSignOut } from '@/offline/components/SignOutConfirmation';
import { countUnsentUploads } from '@/offline/unsentUploads';
import type { Workspace } from '../api/workspaces';
import { CreateWorkspaceForm } from './CreateWorkspaceForm';

export { NO_WORKSPACE_TITLE } from '../model/noWorkspace';
export const NO_WORKSPACE_TEXT =
  'Ask an administrator of your team to add you to a workspace. Until then you can manage your account in your profile.';

export const CREATE_WORKSPACE_TEXT = 'Or create a workspace of your own:';

export interface NoWorkspaceProps {
  onSignOut: () => void;
  /** Offers creating a workspace (the server's WORKSPACE_CREATION); called with the new one. */
  onWorkspaceCreated?: (workspace: Workspace) => void;
  /** Uploads not sent yet (asked before signing out); the upload queue's count by default. */
  countUnsent?: () => Promise<number>;
}

/**
 * Shown in the onboarding layout on pages that need a workspace, to users who have none; with
 * `onWorkspaceCreated`, it also offers creating one.
 * 'Sign out' asks first when uploads have not been sent yet, as the header's does.
 */
export function NoWorkspace({
  onSignOut,
  onWorkspaceCreated,
  countUnsent = countUnsentUploads,
}: NoWorkspaceProps) {
  const signOut = useConfirmedSignOut(onSignOut, countUnsent);
  return (
    <Stack gap="lg" ta="center" align="center">
      <Text>{NO_WORKSPACE_TEXT}</Text>
      {onWorkspaceCreated && (
        <>
          <Text>{CREATE_WORKSPACE_TEXT}</Text>
          <CreateWorkspaceForm onCreated={onWorkspaceCreated} />
        </>
      )}
      <Group justify="center" gap="sm">
        <ButtonLink to="/profile">Your profile</ButtonLink>
        <Button variant="default" onClick={signOut.requestSignOut}>
          Sign out
        </Button>
      </Group>
      {signOut.dialog}
    </Stack>
  );
}
