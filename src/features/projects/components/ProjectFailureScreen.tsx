import { Button, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconMapPinOff } from '@tabler/icons-react';
import { FAILURE_TEXTS, LOAD_PROJECT_FALLBACK, type ProjectFailure } from '../model/project';

export interface ProjectFailureScreenProps {
  failure: ProjectFailure;
  /** Message for failures without a screen of their own. */
  message?: string;
  onRequestAccess?: () => void;
  requesting?: boolean;
}

/** The screens of a project that could not be loaded (spec 001 §2). */
export function ProjectFailureScreen({
  failure,
  message,
  onRequestAccess,
  requesting = false,
}: ProjectFailureScreenProps) {
  if (failure === 'other') {
    return (
      <Text role="alert" c="dimmed">
        {message || LOAD_PROJECT_FALLBACK}
      </Text>
    );
  }
  const texts = FAILURE_TEXTS[failure];
  const Icon = failure === 'not-found' ? IconMapPinOff : IconLock;
  return (
    <Stack align="center" ta="center" gap="sm" py="xl">
      <Icon size={56} stroke={1.2} color="var(--mantine-color-blue-6)" aria-hidden />
      <Title order={2} fz="h3">
        {texts.title}
      </Title>
      <Text c="dimmed">{texts.text}</Text>
      {failure === 'forbidden' && onRequestAccess && (
        <Button onClick={onRequestAccess} loading={requesting}>
          Request access
        </Button>
      )}
    </Stack>
  );
}
