import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useOfflineSavedAt, useOnline } from '../useOnline';
import { OFFLINE_TEXT, offlineSavedText } from '../texts';

export interface OfflineIndicatorViewProps {
  online: boolean;
  savedAt: number | null;
  now?: number;
}

/** The offline state: shown while offline, or while a page shows saved copies. */
export function OfflineIndicatorView({ online, savedAt, now }: OfflineIndicatorViewProps) {
  if (online && savedAt === null) return null;
  return (
    <Alert
      role="status"
      color="gray"
      variant="light"
      mb="md"
      py="xs"
      icon={<IconCloudOff size={18} aria-hidden />}
    >
      {savedAt === null ? OFFLINE_TEXT : offlineSavedText(savedAt, now)}
    </Alert>
  );
}

/** Mounted in the app shell (AppLayout). */
export function OfflineIndicator() {
  const online = useOnline();
  const savedAt = useOfflineSavedAt();
  return <OfflineIndicatorView online={online} savedAt={savedAt} />;
}
