import { Button, Group, Stack, Text } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { ClosableBanner } from '@/components/ClosableBanner';
import {
  BROWSE_TEMPLATES,
  TEMPLATES_BANNER_ID,
  TEMPLATES_BANNER_TEXT,
  TEMPLATES_BANNER_TITLE,
} from '../model/templates';

export interface TemplatesBannerProps {
  /** Opens 'New project' with the templates to choose from. */
  onBrowse: () => void;
}

/**
 * The community banner of the projects list (spec 001 §1): invites users who may create
 * projects to start from a community template; once closed it stays closed on this device.
 */
export function TemplatesBanner({ onBrowse }: TemplatesBannerProps) {
  return (
    <ClosableBanner
      id={TEMPLATES_BANNER_ID}
      label="Community templates"
      closeLabel="Dismiss the community templates"
    >
      <Group gap="md" wrap="nowrap" align="flex-start">
        <IconTemplate size={32} stroke={1.4} aria-hidden style={{ flexShrink: 0 }} />
        <Stack gap={4} align="flex-start">
          <Text fw={700} size="sm">
            {TEMPLATES_BANNER_TITLE}
          </Text>
          <Text size="sm">{TEMPLATES_BANNER_TEXT}</Text>
          <Button variant="light" size="xs" mt={4} onClick={onBrowse}>
            {BROWSE_TEMPLATES}
          </Button>
        </Stack>
      </Group>
    </ClosableBanner>
  );
}
