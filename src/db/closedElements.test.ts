import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeElement, isElementClosed, reopenElement } from './closedElements';
import { DATABASE_NAME, openDatabase } from './db';

// Dexie must not be needed once the database exists: loading it fails the test.
const loadDb = vi.hoisted(() => vi.fn(() => Promise.reject(new Error('Dexie was loaded'))));
vi.mock('./lazy', () => ({ loadDb }));

afterEach(async () => {
  await openDatabase(DATABASE_NAME).delete();
});

describe('closed elements in the app database', () => {
  it('are written, read and deleted with the bare IndexedDB API, and Dexie sees them', async () => {
    const app = openDatabase(DATABASE_NAME);
    await app.open();
    try {
      await closeElement('bare-tip', undefined, 2000);
      expect(await app.closedElements.get('bare-tip')).toEqual({ id: 'bare-tip', closedAt: 2000 });
      expect(await isElementClosed('bare-tip')).toBe(true);
      await reopenElement('bare-tip');
      expect(await app.closedElements.get('bare-tip')).toBeUndefined();
      expect(await isElementClosed('bare-tip')).toBe(false);
    } finally {
      app.close();
    }
    expect(loadDb).not.toHaveBeenCalled();
  });

  it('go through Dexie while the database does not exist yet', async () => {
    await expect(closeElement('first-visit-tip')).rejects.toThrow('Dexie was loaded');
    expect(loadDb).toHaveBeenCalled();
  });
});
