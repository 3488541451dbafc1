import { Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { OFFLINE_ACTION_REASON } from '../texts';

export interface OfflineReasonProps {
  /** Whether the action is disabled because the browser is offline. */
  offline: boolean;
  children: ReactNode;
}

/**
 * Says why an action is disabled while offline: a tooltip on the (disabled) control, which is
 * wrapped so the tooltip still opens on hover and keyboard focus.
 */
export function OfflineReason({ offline, children }: OfflineReasonProps) {
  if (!offline) return <>{children}</>;
  return (
    <Tooltip label={OFFLINE_ACTION_REASON} withArrow>
      <span tabIndex={0} style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}
