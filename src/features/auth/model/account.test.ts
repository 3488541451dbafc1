// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, MAINTENANCE_MESSAGE } from '@/api';
import {
  RESEND_ADDRESS_FAILURE,
  RESEND_FAILURE,
  canChangePassword,
  canCloseAccount,
  confirmationSentMessage,
  fullNameOf,
  resendFailureMessage,
} from './account';

describe('fullNameOf', () => {
  it("uses the name, else first and last name, else '-'", () => {
    expect(fullNameOf({ name: 'Jane Doe' })).toBe('Jane Doe');
    expect(fullNameOf({ name: '', first_name: 'Jane', last_name: null })).toBe('Jane');
    expect(fullNameOf({ name: ' ', first_name: null, last_name: null })).toBe('-');
  });
});

describe('canCloseAccount', () => {
  it('needs the username typed exactly', () => {
    expect(canCloseAccount('jane', 'jane')).toBe(true);
    expect(canCloseAccount('JANE', 'jane')).toBe(false);
    expect(canCloseAccount(' jane', 'jane')).toBe(false);
    expect(canCloseAccount('', '')).toBe(false);
  });
});

describe('canChangePassword', () => {
  it('needs old password, new password and confirmation', () => {
    expect(canChangePassword({ old_password: 'a', password: 'b', confirm: 'c' })).toBe(true);
    expect(canChangePassword({ old_password: '', password: 'b', confirm: 'c' })).toBe(false);
    expect(canChangePassword({ old_password: 'a', password: '', confirm: 'c' })).toBe(false);
    expect(canChangePassword({ old_password: 'a', password: 'b', confirm: '' })).toBe(false);
  });
});

describe('confirmation email messages', () => {
  it('names the address on success', () => {
    expect(confirmationSentMessage('a@x.com')).toBe('Email was sent to address: a@x.com');
  });
  it('prefers the server detail, then asks to check the address on a refusal', () => {
    expect(
      resendFailureMessage(new ApiError({ status: 403, data: { detail: 'No' }, message: 'No' })),
    ).toBe('No');
    expect(resendFailureMessage(new ApiError({ status: 400, data: '', message: 'x' }))).toBe(
      RESEND_ADDRESS_FAILURE,
    );
    expect(RESEND_ADDRESS_FAILURE).toBe(
      'Failed to send confirmation email, please check your address in user profile settings',
    );
  });
  it('falls back to the plain message otherwise', () => {
    expect(resendFailureMessage(new ApiError({ status: 500, message: 'x' }))).toBe(RESEND_FAILURE);
    expect(
      resendFailureMessage(new ApiError({ status: 0, message: 'x', isNetworkError: true })),
    ).toBe('Failed to send confirmation email');
    expect(resendFailureMessage(new Error('boom'))).toBe(RESEND_FAILURE);
    expect(
      resendFailureMessage(
        new ApiError({ status: 503, message: MAINTENANCE_MESSAGE, isMaintenance: true }),
      ),
    ).toBe(MAINTENANCE_MESSAGE);
  });
});
