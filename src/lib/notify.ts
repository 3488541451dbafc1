/**
 * Toasts (spec 000 §9): 3000 ms by default, 5000 ms for failures. Position and width are set on
 * the <Notifications> host in main.tsx.
 */
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

export const TOAST_AUTO_CLOSE = 3000;
export const FAILURE_TOAST_AUTO_CLOSE = 5000;

export function notifySuccess(message: ReactNode): string {
  return notifications.show({ message, color: 'green', autoClose: TOAST_AUTO_CLOSE });
}

export function notifyInfo(message: ReactNode): string {
  return notifications.show({ message, autoClose: TOAST_AUTO_CLOSE });
}

export function notifyError(message: ReactNode): string {
  return notifications.show({ message, color: 'red', autoClose: FAILURE_TOAST_AUTO_CLOSE });
}
