// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api';
import { reportFormError, splitFormError } from './formErrors';

describe('splitFormError', () => {
  it('puts field errors under known fields and the rest aside', () => {
    const error = new ApiError({
      status: 400,
      data: { password: ['Weak', 'Short'], confirm: ['Passwords must match'], other: ['Odd'] },
      message: 'Failed',
    });
    expect(splitFormError(error, ['password', 'confirm'], 'x')).toEqual({
      fields: { password: 'Weak', confirm: 'Passwords must match' },
      other: ['Odd'],
    });
  });

  it('uses the detail message or the fallback otherwise', () => {
    const detail = new ApiError({
      status: 401,
      data: { detail: 'Invalid username or password', status: 401 },
      message: 'Invalid username or password',
    });
    expect(splitFormError(detail, ['login'], 'Failed to login')).toEqual({
      fields: {},
      other: ['Invalid username or password'],
    });
    expect(splitFormError('weird', ['login'], 'Failed to login').other).toEqual([
      'Failed to login',
    ]);
  });
});

describe('reportFormError', () => {
  it('sets field errors and toasts the rest', () => {
    const setErrors = vi.fn();
    const toast = vi.fn();
    const error = new ApiError({
      status: 400,
      data: { email: ['Invalid email address.'] },
      message: 'F',
    });
    reportFormError(error, ['email'], setErrors, 'F', toast);
    expect(setErrors).toHaveBeenCalledWith({ email: 'Invalid email address.' });
    expect(toast).not.toHaveBeenCalled();
    reportFormError(
      new ApiError({ status: 0, message: 'F', isNetworkError: true }),
      ['email'],
      setErrors,
      'F',
      toast,
    );
    expect(setErrors).toHaveBeenLastCalledWith({});
    expect(toast).toHaveBeenCalledWith('F');
  });
});
