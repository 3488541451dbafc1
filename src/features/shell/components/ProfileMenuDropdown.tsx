import { Avatar, Group, Menu, Stack, Text } from '@mantine/core';
import { IconCheck, IconListDetails, IconLogout, IconUser, IconUsers } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import type { LazyMenuTarget } from '@/components/lazyMenu';
import { initials } from '@/lib/text';
import type { ProfileMenuProps } from './ProfileMenu';

/** The profile menu itself, loaded when it is first opened (ProfileMenu). */
export function ProfileMenuDropdown({
  user,
  workspaceName,
  switcher,
  onSignOut,
  target,
}: ProfileMenuProps & LazyMenuTarget) {
  const navigate = useNavigate();
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
        {switcher && switcher.workspaces.length > 0 && (
          <>
            <Menu.Label>Workspaces</Menu.Label>
            {switcher.workspaces.map((workspace) => {
              const current = workspace.id === switcher.currentId;
              return (
                <Menu.Item
                  key={workspace.id}
                  aria-current={current ? 'true' : undefined}
                  leftSection={<IconCheck size={16} visibility={current ? 'visible' : 'hidden'} />}
                  rightSection={
                    <Text size="xs" c="dimmed">
                      {workspace.role}
                    </Text>
                  }
                  onClick={() => {
                    if (!current) switcher.onSelect(workspace.id);
                  }}
                >
                  <Text size="sm" truncate>
                    {workspace.name}
                  </Text>
                </Menu.Item>
              );
            })}
            {switcher.canManageMembers && workspaceName && (
              <Menu.Item
                onClick={() =>
                  void navigate({
                    to: '/workspaces/$workspace/members',
                    params: { workspace: workspaceName },
                  })
                }
                leftSection={<IconUsers size={18} />}
              >
                Members
              </Menu.Item>
            )}
            {switcher.canManageMembers && (
              <Menu.Item component={Link} to="/audit" leftSection={<IconListDetails size={18} />}>
                Audit log
              </Menu.Item>
            )}
            <Menu.Divider />
          </>
        )}
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
