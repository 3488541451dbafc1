/**
 * Toasts (spec 000 §2 and §9): top centre, 3000 ms by default, 5000 ms for failures, at most
 * 40rem or 80% wide. The host's props are TOAST_HOST_PROPS (main.tsx and the test providers).
 */
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

export const TOAST_AUTO_CLOSE = 3000;
export const FAILURE_TOAST_AUTO_CLOSE = 5000;
/** Toasts are at most 40rem wide, and 80% of narrow screens. */
export const TOAST_MAX_WIDTH = 'min(40rem, 80%)';

/** Props of the one <Notifications> host: top centre, 3 s, at most 40rem or 80% wide. */
export const TOAST_HOST_PROPS = {
  position: 'top-center',
  autoClose: TOAST_AUTO_CLOSE,
  containerWidth: TOAST_MAX_WIDTH,
} as const;

export function notifySuccess(message: ReactNode): string {
  return notifications.show({ message, color: 'green', autoClose: TOAST_AUTO_CLOSE });
}

export function notifyInfo(message: ReactNode): string {
  return notifications.show({ message, autoClose: TOAST_AUTO_CLOSE });
}

export function notifyError(message: ReactNode): string {
  return notifications.show({ message, color: 'red', autoClose: FAILURE_TOAST_AUTO_CLOSE });
}

/** Long-lasting warnings stay until closed or 15 s (spec 001 §8 'Unable to share project...'). */
export const LONG_WARNING_AUTO_CLOSE = 15_000;

export function notifyWarning(message: ReactNode, title?: string): string {
  return notifications.show({
    title,
    message,
    color: 'yellow',
    autoClose: LONG_WARNING_AUTO_CLOSE,
  });
}

const NEXT_PAGE_NOTICE_KEY = 'waymark.nextPageNotice';

/**
 * A success toast for the page that comes after a full reload (closing an account reloads the
 * app): kept in sessionStorage until `showNoticeFromLastPage` shows it.
 */
export function notifySuccessAfterReload(message: string): void {
  try {
    sessionStorage.setItem(NEXT_PAGE_NOTICE_KEY, message);
  } catch {
    // Storage disabled: the page after the reload shows no toast.
  }
}

/** Shows (once) the toast the page before the reload left. */
export function showNoticeFromLastPage(): void {
  let message: string | null;
  try {
    message = sessionStorage.getItem(NEXT_PAGE_NOTICE_KEY);
    sessionStorage.removeItem(NEXT_PAGE_NOTICE_KEY);
  } catch {
    return;
  }
  if (message) notifySuccess(message);
}
