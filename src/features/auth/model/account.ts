/** Pure rules of the account screens (spec 000 §2, §5 and §8). */
import { detailOf, isApiError } from '@/api';

/** The profile's full name, or '-' when the user gave none. */
export function fullNameOf(profile: {
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}): string {
  const name =
    profile.name?.trim() ||
    [profile.first_name, profile.last_name]
      .map((part) => part?.trim())
      .filter(Boolean)
      .join(' ');
  return name || '-';
}

/** Closing the account needs the own username typed exactly (no trimming, case counts). */
export function canCloseAccount(typed: string, username: string): boolean {
  return typed === username && username !== '';
}

/** 'Save changes' of the account's change password needs all three fields (spec 000 §5). */
export function canChangePassword(values: {
  old_password: string;
  password: string;
  confirm: string;
}): boolean {
  return values.old_password !== '' && values.password !== '' && values.confirm !== '';
}

export const RESEND_ADDRESS_FAILURE =
  'Failed to send confirmation email, please check your address in user profile settings';
export const RESEND_FAILURE = 'Failed to send confirmation email';

/** Title of the profile's banner while a new address waits for confirmation. */
export const PENDING_EMAIL_TITLE = 'Confirm your new email address';

/** What the pending email change means for the user (the old address stays in use). */
export function pendingEmailText(email: string, pending: string): string {
  return `We sent a confirmation link to ${pending}. Until you open it, ${email} stays the address you sign in with and receive mail at.`;
}

/** Whether an edit of the profile asks for another email (letter case does not count). */
export function isEmailChange(current: string | null, typed: string): boolean {
  return typed.trim().toLowerCase() !== (current ?? '').trim().toLowerCase();
}

/** Success text of 'Send confirmation email'. */
export function confirmationSentMessage(email: string): string {
  return `Email was sent to address: ${email}`;
}

/**
 * Failure text of 'Send confirmation email': the server's detail when it gives one; a refusal
 * without one (the mail could not go to the address) asks to check the address in the profile;
 * anything else (offline, server error) is the plain fallback.
 */
export function resendFailureMessage(error: unknown): string {
  if (!isApiError(error)) return RESEND_FAILURE;
  if (error.isMaintenance) return error.message;
  const detail = detailOf(error.data);
  if (detail) return detail;
  if (error.status >= 400 && error.status < 500 && error.status !== 401) {
    return RESEND_ADDRESS_FAILURE;
  }
  return RESEND_FAILURE;
}
