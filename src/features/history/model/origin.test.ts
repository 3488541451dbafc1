import { describe, expect, it } from 'vitest';
import { originText } from './origin';

describe('originText', () => {
  it('says what a time-travel version did', () => {
    const none = { version: null, path: null, original: null };
    expect(originText({ ...none, action: 'restore_version', version: 'v1' })).toBe('Restored v1');
    expect(originText({ ...none, action: 'restore_file', version: 'v2', path: 'a/b.gpkg' })).toBe(
      'Restored a/b.gpkg from v2',
    );
    expect(
      originText({
        ...none,
        action: 'keep_copy',
        path: 'b (conflicted copy, ann v3).gpkg',
        original: 'b.gpkg',
      }),
    ).toBe('Kept b (conflicted copy, ann v3).gpkg in place of b.gpkg');
    expect(originText({ ...none, action: 'discard_copy', path: 'x.json' })).toBe(
      'Discarded x.json',
    );
  });
});
