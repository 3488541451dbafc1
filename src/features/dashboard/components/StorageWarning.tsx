import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useSessionFlag } from '@/lib/useSessionFlag';
import { shouldWarnAboutStorage } from '../model/storageWarning';

const DISMISSED_KEY = 'waymark.storage-warning.dismissed';

/** 'Your storage is almost full (N%).' above 90 percent; dismissible for the session. */
export function StorageWarning({ percentage }: { percentage: number }) {
  const [dismissed, setDismissed] = useSessionFlag(DISMISSED_KEY);
  if (dismissed || !shouldWarnAboutStorage(percentage)) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={20} />}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => setDismissed(true)}
      mb="md"
      role="alert"
    >
      <Text size="sm" fw={600}>
        {`Your storage is almost full (${percentage}%).`}
      </Text>
      <Text size="sm">Soon you will not be able to sync your projects.</Text>
    </Alert>
  );
}
