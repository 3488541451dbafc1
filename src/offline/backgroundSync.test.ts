import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_SYNC_TAG } from '@/sw/offline';
import {
  onUploadSync,
  registerUploadSync,
  requestPersistentStorage,
  type BrowserParts,
} from './backgroundSync';

function container(registration: unknown) {
  const target = new EventTarget();
  return {
    target,
    parts: {
      serviceWorker: {
        getRegistration: vi.fn(async () => registration),
        addEventListener: target.addEventListener.bind(target),
        removeEventListener: target.removeEventListener.bind(target),
      },
    } as unknown as BrowserParts,
  };
}

describe('registerUploadSync', () => {
  it('registers the upload tag where the browser has Background Sync', async () => {
    const register = vi.fn(async () => undefined);
    expect(await registerUploadSync(container({ sync: { register } }).parts)).toBe(true);
    expect(register).toHaveBeenCalledWith(UPLOAD_SYNC_TAG);
  });

  it('is false without Background Sync, a worker, or when refused', async () => {
    expect(await registerUploadSync(container({}).parts)).toBe(false);
    expect(await registerUploadSync(container(undefined).parts)).toBe(false);
    expect(await registerUploadSync({})).toBe(false);
    const refused = vi.fn(() => Promise.reject(new DOMException('no', 'NotAllowedError')));
    expect(await registerUploadSync(container({ sync: { register: refused } }).parts)).toBe(false);
  });
});

describe('requestPersistentStorage', () => {
  it('asks for persistence unless granted already', async () => {
    const persist = vi.fn(async () => true);
    expect(
      await requestPersistentStorage({ storage: { persist, persisted: async () => false } }),
    ).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
    const again = vi.fn(async () => true);
    expect(
      await requestPersistentStorage({ storage: { persist: again, persisted: async () => true } }),
    ).toBe(true);
    expect(again).not.toHaveBeenCalled();
    expect(await requestPersistentStorage({})).toBe(false);
  });
});

describe('onUploadSync', () => {
  it("calls the listener on the worker's resume message only, until stopped", () => {
    const { target, parts } = container(undefined);
    const listener = vi.fn();
    const stop = onUploadSync(listener, parts);
    target.dispatchEvent(new MessageEvent('message', { data: { type: 'SKIP_WAITING' } }));
    target.dispatchEvent(new MessageEvent('message', { data: { type: 'uploads/resume' } }));
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    target.dispatchEvent(new MessageEvent('message', { data: { type: 'uploads/resume' } }));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
