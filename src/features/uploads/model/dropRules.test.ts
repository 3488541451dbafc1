import { describe, expect, it } from 'vitest';
import { dragAllowed, dropRefusal, itemsRefusal } from './dropRules';

const allowed = { canUpload: true, onProjectTree: true, running: false };

describe('drop rules', () => {
  it('refuses without upload permission, away from project-tree and during an upload', () => {
    expect(dropRefusal(allowed)).toBeNull();
    expect(dropRefusal({ ...allowed, canUpload: false })).toBe(
      'You do not have permission to upload files to this project',
    );
    expect(dropRefusal({ ...allowed, onProjectTree: false })).toBe(
      "Files can be dropped only on a project's Files tab",
    );
    expect(dropRefusal({ ...allowed, running: true })).toBe(
      'You cannot update files during upload',
    );
  });

  it('refuses items that are not files', () => {
    expect(itemsRefusal(['file', 'file'])).toBeNull();
    expect(itemsRefusal(['file', 'string'])).toBe('Drop only files or folders');
    expect(itemsRefusal([])).toBe('Drop only files or folders');
  });

  it('highlights as allowed only for files where dropping is possible', () => {
    expect(dragAllowed(allowed, ['file'])).toBe(true);
    expect(dragAllowed(allowed, ['string'])).toBe(false);
    expect(dragAllowed({ ...allowed, running: true }, ['file'])).toBe(false);
  });
});
