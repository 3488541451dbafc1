/** Texts of the offline mode (issue 8; invented, recorded in docs/decisions/, records 0048–0052). */
import { relativeTime } from '@/lib/time';

/** The indicator while a page shows data saved on this device. */
export function offlineSavedText(savedAt: number, now: number = Date.now()): string {
  const when = now - savedAt < 60_000 ? 'just now' : relativeTime(savedAt, now);
  return `Offline — showing data saved ${when}`;
}

/** The indicator while the browser is offline and nothing saved is shown. */
export const OFFLINE_TEXT = 'Offline — pages opened before are still available';

/** A page (project, list, versions, preview) that was never saved on this device, offline. */
export const NOT_SAVED_OFFLINE =
  'You are offline and this page has not been saved on this device. Connect to the internet to open it.';

/** Why an action that needs the server is disabled. */
export const OFFLINE_ACTION_REASON = 'Not available offline: connect to the internet first';

/** Browser storage running short (shown with the upload queue). */
export function storageShortText(usage: string, quota: string): string {
  return `Storage on this device is running short: ${usage} of ${quota} used. Queued uploads need space until they are sent.`;
}

/** Title of the confirmation shown when signing out would delete uploads not sent yet. */
export const UNSENT_UPLOADS_TITLE = 'Uploads not sent yet';

/** Its text: how many uploads, and that signing out deletes them from this device. */
export function unsentUploadsText(count: number): string {
  return count === 1
    ? '1 upload has not been sent yet. Signing out deletes it from this device.'
    : `${count} uploads have not been sent yet. Signing out deletes them from this device.`;
}

export const KEEP_SIGNED_IN = 'Keep signed in';
export const SIGN_OUT_AND_DELETE = 'Sign out and delete them';
