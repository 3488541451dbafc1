import { Avatar, Group, Menu, Stack, Text } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { LazyMenuTarget } from '@/components/lazyMenu';
import { initials } from '@/lib/text';
import type { ProfileMenuProps } from './ProfileMenu';

/** The profile menu itself, loaded when it is first opened (ProfileMenu). */
export function ProfileMenuDropdown({
  user,
  onSignOut,
  target,
}: ProfileMenuProps & LazyMenuTarget) {
  const avatarText = initials(user.name, user.username);
  const fullName = user.name?.trim() || user.username;
  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>{target}</Menu.Target>
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
