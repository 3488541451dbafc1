import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FAILURE_TOAST_AUTO_CLOSE,
  TOAST_AUTO_CLOSE,
  TOAST_HOST_PROPS,
  notifyError,
  notifyInfo,
  notifySuccess,
  notifyWarning,
} from './notify';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('toasts', () => {
  it('live 3000 ms, failures 5000 ms', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    notifySuccess('ok');
    notifyInfo('fyi');
    notifyError('bad');
    expect(show.mock.calls.map(([options]) => options.autoClose)).toEqual([3000, 3000, 5000]);
    expect(show.mock.calls[2]?.[0].color).toBe('red');
    expect(TOAST_AUTO_CLOSE).toBe(3000);
    expect(FAILURE_TOAST_AUTO_CLOSE).toBe(5000);
  });

  it('appear at the top centre, at most 40rem or 80% wide', () => {
    expect(TOAST_HOST_PROPS).toEqual({
      position: 'top-center',
      autoClose: 3000,
      containerWidth: 'min(40rem, 80%)',
    });
  });

  it('keep long-lasting warnings 15 s, with their title', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('id');
    notifyWarning('jane, joe', 'Unable to share project with the following users');
    expect(show.mock.calls[0]?.[0]).toMatchObject({
      title: 'Unable to share project with the following users',
      message: 'jane, joe',
      autoClose: 15_000,
      color: 'yellow',
    });
  });
});
