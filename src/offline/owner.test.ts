import { afterEach, describe, expect, it } from 'vitest';
import { LAST_INIT_KEY } from './lastInit';
import {
  OFFLINE_USER_KEY,
  PUBLIC_OWNER,
  forgetOfflineUser,
  offlineOwner,
  rememberOfflineUser,
} from './owner';

const signedIn = (authenticated: boolean) =>
  localStorage.setItem(LAST_INIT_KEY, JSON.stringify({ authenticated, superuser: false }));

afterEach(() => localStorage.clear());

describe('offlineOwner', () => {
  it('is public for an anonymous visitor, even with a remembered user', () => {
    expect(offlineOwner()).toBe(PUBLIC_OWNER);
    rememberOfflineUser(7);
    signedIn(false);
    expect(offlineOwner()).toBe(PUBLIC_OWNER);
  });

  it('is the signed-in user once the profile told who it is, unknown before', () => {
    signedIn(true);
    expect(offlineOwner()).toBeNull();
    rememberOfflineUser(7);
    expect(localStorage.getItem(OFFLINE_USER_KEY)).toBe('7');
    expect(offlineOwner()).toBe('user:7');
    forgetOfflineUser();
    expect(offlineOwner()).toBeNull();
  });
});
