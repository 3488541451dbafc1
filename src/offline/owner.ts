/**
 * Whose offline copies the current calls read and write: 'public' for an anonymous visitor,
 * 'user:<id>' for a signed-in user, or null while a signed-in user's id is not known yet (right
 * after sign-in), when nothing is saved so no private answer is ever tagged 'public'.
 *
 * Signed in or not comes from the last session answer (./lastInit); the user id from
 * the last profile answer, kept in localStorage so a reload offline still knows it, and cleared
 * at sign-in, sign-out and when the session ends. The service worker is told each change
 * (it tags the image previews it caches the same way, see src/sw/offline.ts).
 */
import { PUBLIC_OWNER_NAME } from '@/sw/offline';
import { lastInit } from './lastInit';
import { postOwnerToServiceWorker } from './serviceWorkerOwner';

export const PUBLIC_OWNER = PUBLIC_OWNER_NAME;
export const USER_OWNER_PREFIX = 'user:';
export const OFFLINE_USER_KEY = 'waymark.offline.user';

export function userOwner(userId: number): string {
  return `${USER_OWNER_PREFIX}${userId}`;
}

function storedUserId(): number | null {
  try {
    const raw = localStorage.getItem(OFFLINE_USER_KEY);
    const id = raw === null ? NaN : Number(raw);
    return Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

export function offlineOwner(): string | null {
  if (lastInit()?.authenticated !== true) return PUBLIC_OWNER;
  const id = storedUserId();
  return id === null ? null : userOwner(id);
}

/** The profile answered: copies from now on belong to this user. */
export function rememberOfflineUser(userId: number): void {
  if (storedUserId() === userId) return;
  try {
    localStorage.setItem(OFFLINE_USER_KEY, String(userId));
  } catch {
    // Storage disabled: nothing private is saved (the owner stays unknown).
  }
  postOwnerToServiceWorker(offlineOwner());
}

/** Tells the service worker the current owner (at start, and after the session changed). */
export function syncOfflineOwner(): void {
  postOwnerToServiceWorker(offlineOwner());
}

/** Sign-in starts, sign-out or the session ended: the signed-in user is not known any more. */
export function forgetOfflineUser(): void {
  try {
    localStorage.removeItem(OFFLINE_USER_KEY);
  } catch {
    // Nothing stored.
  }
  postOwnerToServiceWorker(offlineOwner());
}
