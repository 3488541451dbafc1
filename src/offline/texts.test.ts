import { describe, expect, it } from 'vitest';
import { offlineSavedText } from './texts';

describe('offlineSavedText', () => {
  it('says when the data shown was saved', () => {
    const now = Date.UTC(2026, 10, 21, 12);
    expect(offlineSavedText(now - 20_000, now)).toBe('Offline — showing data saved just now');
    expect(offlineSavedText(now - 5 * 60_000, now)).toBe(
      'Offline — showing data saved 5 minutes ago',
    );
    expect(offlineSavedText(now - 3 * 86_400_000, now)).toBe(
      'Offline — showing data saved 3 days ago',
    );
  });
});
