import { Avatar, Box, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { lazyMenu } from '@/components/lazyMenu';
import { initials, shorten } from '@/lib/text';

export interface ShellUser {
  username: string;
  name?: string | null;
  email?: string | null;
}

/** A workspace the user can switch to, with the user's role in it. */
export interface ShellWorkspace {
  id: number;
  name: string;
  role: string;
}

/** The workspace switcher in the profile menu. */
export interface WorkspaceSwitcher {
  workspaces: readonly ShellWorkspace[];
  currentId: number | null;
  onSelect: (id: number) => void;
  /** Shows 'Members' for the current workspace (its admins and owners). */
  canManageMembers?: boolean;
}

export interface ProfileMenuProps {
  user: ShellUser;
  /** The user's workspaces; without it the menu has no switcher. */
  switcher?: WorkspaceSwitcher;
  /**
   * Current workspace name; null shows 'no workspace'; undefined (still loading, e.g. right
   * after sign-in) shows nothing yet, so 'no workspace' never flashes (issue 31).
   */
  workspaceName: string | null | undefined;
  /** Whether the workspace name shows on the button. @default true */
  showWorkspace?: boolean;
  onSignOut: () => void;
}

/** The menu's code loads when it is first opened (issue 8's bundle budget). */
const LazyProfileMenu = lazyMenu<ProfileMenuProps>(
  async () => (await import('./ProfileMenuDropdown')).ProfileMenuDropdown,
);

/** Header profile button and menu (spec 000 §2). */
export function ProfileMenu({
  user,
  workspaceName,
  showWorkspace = true,
  switcher,
  onSignOut,
}: ProfileMenuProps) {
  const avatarText = initials(user.name, user.username);
  return (
    <LazyProfileMenu
      user={user}
      workspaceName={workspaceName}
      showWorkspace={showWorkspace}
      switcher={switcher}
      onSignOut={onSignOut}
      // Named by its content (so the visible name is part of it): 'Profile menu admin waymark'.
      target={
        <UnstyledButton px={6} py={4} style={{ borderRadius: 8 }}>
          <VisuallyHidden>Profile menu</VisuallyHidden>
          <Group gap={8} wrap="nowrap">
            <Avatar color="blue" radius="xl" size={32} aria-hidden>
              {avatarText}
            </Avatar>
            <Box style={{ lineHeight: 1.15, minWidth: 0 }} visibleFrom="xs">
              <Text size="sm" fw={600}>
                {shorten(user.username)}
              </Text>
              {showWorkspace && (
                <Text size="xs" c="dimmed">
                  {workspaceName === undefined ? '\u00a0' : (workspaceName ?? 'no workspace')}
                </Text>
              )}
            </Box>
            <IconChevronDown size={16} stroke={1.6} />
          </Group>
        </UnstyledButton>
      }
    />
  );
}
