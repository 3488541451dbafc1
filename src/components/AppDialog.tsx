import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';
import { DIALOG_Z_INDEX } from '@/theme/theme';

/** Title of a dialog that has no other (spec 000 §2 "Dialogs"). */
export const DEFAULT_DIALOG_TITLE = 'Action';

/** Dialog maximum widths in px (spec 000 §9): clone 580, share 600, every other dialog 500. */
export const DIALOG_WIDTH = { default: 500, clone: 580, share: 600 } as const;

export interface AppDialogProps {
  opened: boolean;
  onClose: () => void;
  /** @default 'Action' */
  title?: ReactNode;
  /** Maximum width in px. @default 500 */
  maxWidth?: number;
  /** A persistent dialog closes only from its own buttons: not on Escape or a click outside it. */
  persistent?: boolean;
  children: ReactNode;
}

/** The product's dialog: titled, 500px wide unless told otherwise, mask at z-index 7. */
export function AppDialog({
  opened,
  onClose,
  title = DEFAULT_DIALOG_TITLE,
  maxWidth = DIALOG_WIDTH.default,
  persistent = false,
  children,
}: AppDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={maxWidth}
      zIndex={DIALOG_Z_INDEX}
      closeOnClickOutside={!persistent}
      closeOnEscape={!persistent}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {children}
    </Modal>
  );
}
