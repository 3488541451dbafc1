import { Group, Text } from '@mantine/core';

/** The map pin mark on the brand colour, as in the app icons. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#1c7ed6" />
      <path
        d="M32 11c-8.3 0-15 6.5-15 14.6C17 36.5 32 53 32 53s15-16.5 15-27.4C47 17.5 40.3 11 32 11zm0 20.5a6 6 0 1 1 0-12 6 6 0 0 1 0 12z"
        fill="#fff"
      />
    </svg>
  );
}

export function Logo({ size = 28 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap">
      <LogoMark size={size} />
      <Text fw={700} fz={size * 0.7} c="var(--mantine-color-text)">
        Waymark
      </Text>
    </Group>
  );
}
