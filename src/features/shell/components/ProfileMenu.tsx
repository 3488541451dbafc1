import {
  Avatar,
  Box,
  Group,
  Menu,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { initials, shorten } from '../../../lib/text';

export interface ShellUser {
  username: string;
  name?: string | null;
  email?: string | null;
}

export interface ProfileMenuProps {
  user: ShellUser;
  /** Current workspace name; null shows 'no workspace'. */
  workspaceName: string | null;
  /** Whether the workspace name shows on the button. @default true */
  showWorkspace?: boolean;
  onSignOut: () => void;
}

/** Header profile button and menu (spec 000 §2). */
export function ProfileMenu({
  user,
  workspaceName,
  showWorkspace = true,
  onSignOut,
}: ProfileMenuProps) {
  const avatarText = initials(user.name, user.username);
  const fullName = user.name?.trim() || user.username;
  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        {/* Named by its content (so the visible name is part of it): 'Profile menu admin waymark'. */}
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
                  {workspaceName ?? 'no workspace'}
                </Text>
              )}
            </Box>
            <IconChevronDown size={16} stroke={1.6} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Group gap="sm" p="sm" wrap="nowrap">
          <Avatar color="blue" radius="xl" size={40}>
            {avatarText}
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {fullName}
            </Text>
            {user.email && (
              <Text size="xs" c="dimmed" truncate>
                {user.email}
              </Text>
            )}
          </Stack>
        </Group>
        <Menu.Divider />
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={18} />}>
          Your profile
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={18} />} onClick={onSignOut}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
