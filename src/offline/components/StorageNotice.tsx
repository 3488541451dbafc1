import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatFileSize } from '@/lib/fileSize';
import { isStorageShort, readStorageEstimate, type StorageEstimateLike } from '../storage';
import { storageShortText } from '../texts';

export interface StorageNoticeProps {
  /** Reads the estimate again whenever this changes (e.g. the number of queued uploads). */
  trigger: unknown;
  read?: () => Promise<StorageEstimateLike | null>;
}

/** The site's storage estimate, shown only when space runs short (in the upload toast). */
export function StorageNotice({ trigger, read = readStorageEstimate }: StorageNoticeProps) {
  const [estimate, setEstimate] = useState<StorageEstimateLike | null>(null);
  useEffect(() => {
    let current = true;
    void read().then((next) => {
      if (current) setEstimate(next);
    });
    return () => {
      current = false;
    };
  }, [trigger, read]);
  if (!estimate || !isStorageShort(estimate)) return null;
  return (
    <Text size="xs" c="orange.9" mt="sm" role="alert">
      {storageShortText(formatFileSize(estimate.usage ?? 0), formatFileSize(estimate.quota ?? 0))}
    </Text>
  );
}
