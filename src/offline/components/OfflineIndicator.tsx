import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { offlineStatus } from '../offlineStatus';
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

/** The first wait before the pages are read again while online with saved copies shown. */
export const REREAD_FIRST_MS = 2000;
/** The longest wait between two reads. */
export const REREAD_MAX_MS = 60_000;

/**
 * Online while saved copies are still shown (the browser said 'online' before the server could
 * be reached, so the reads on reconnecting were answered from the copies again): the pages'
 * data is read again, after 2 s, 4 s … at most a minute apart, until the server answers and
 * the notice goes (issue 31: it stayed for over a minute after the queued change was sent).
 */
export function useRereadWhileServedOffline(online: boolean, savedAt: number | null): void {
  const queryClient = useQueryClient();
  const showing = online && savedAt !== null;
  useEffect(() => {
    if (!showing) return;
    let delay = REREAD_FIRST_MS;
    let timer: ReturnType<typeof setTimeout>;
    const reread = () => {
      // Copies of pages left meanwhile no longer count: only what is shown.
      void offlineStatus.recheck(() => queryClient.refetchQueries({ type: 'active' }));
      delay = Math.min(delay * 2, REREAD_MAX_MS);
      timer = setTimeout(reread, delay);
    };
    timer = setTimeout(reread, delay);
    return () => clearTimeout(timer);
  }, [showing, queryClient]);
}

/** Mounted in the app shell (AppLayout). */
export function OfflineIndicator() {
  const online = useOnline();
  const savedAt = useOfflineSavedAt();
  useRereadWhileServedOffline(online, savedAt);
  return <OfflineIndicatorView online={online} savedAt={savedAt} />;
}
