import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FileIcon, fileName } from '@/features/projects';

/** One file in a list of changed files: its icon, path and a dimmed detail (size), then extras. */
export function FileLine({
  path,
  detail,
  children,
}: {
  path: string;
  detail: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <FileIcon entry={{ type: 'file', name: fileName(path) }} />
      <Text size="sm" style={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }}>
        {path}
      </Text>
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {detail}
      </Text>
      {children}
    </Group>
  );
}
