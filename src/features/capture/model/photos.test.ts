import { describe, expect, it } from 'vitest';
import { isImagePath, photoExtension, photoFolder, photoPath } from './photos';

describe('photo paths', () => {
  it('stores a new photo in the widget’s folder, named by when it was taken', () => {
    const taken = new Date(2026, 10, 5, 9, 3, 7);
    expect(photoPath('photos', taken, { type: 'image/jpeg', name: 'IMG.JPG' }, 'a1b2')).toBe(
      'photos/20261105_090307_a1b2.jpg',
    );
    expect(photoPath('', taken, { type: '', name: 'x.PNG' }, 'z')).toBe('20261105_090307_z.png');
    expect(photoPath('/DCIM/./trees/', taken, { type: '', name: 'x' }, 'z')).toBe(
      'DCIM/trees/20261105_090307_z.jpg',
    );
  });

  it('never leaves the project', () => {
    expect(photoFolder('../../etc')).toBe('etc');
    expect(photoFolder('a\\..\\b')).toBe('a/b');
    expect(photoFolder(undefined)).toBe('');
  });

  it('knows images by their extension', () => {
    expect(photoExtension('image/webp', 'a.jpg')).toBe('webp');
    expect(isImagePath('photos/a.JPG')).toBe(true);
    expect(isImagePath('notes/a.pdf')).toBe(false);
  });
});
