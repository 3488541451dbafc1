// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  buildFolderIndex,
  fileIconKind,
  listChanges,
  listFolder,
  pageOf,
  sortEntries,
  type FileEntry,
  type ListedFile,
} from './files';

const file = (
  path: string,
  size = 1,
  mtime: string | null = '2024-05-01T00:00:00Z',
): ListedFile => ({
  path,
  size,
  mtime,
});

describe('folder listings', () => {
  const files = [
    file('project.qgz', 10),
    file('data/points.gpkg', 100, '2024-05-03T00:00:00Z'),
    file('data/sub/lines.gpkg', 50, '2024-05-05T00:00:00Z'),
    file('photos/a.jpg', 5),
  ];
  const index = buildFolderIndex(files);

  it('lists the folders and files of a folder with folder sizes and latest change', () => {
    const root = listFolder(index, '');
    expect(root.map((e) => `${e.type}:${e.name}`)).toEqual([
      'folder:data',
      'folder:photos',
      'file:project.qgz',
    ]);
    const data = root[0] as FileEntry;
    expect(data.size).toBe(150);
    expect(data.mtime).toBe('2024-05-05T00:00:00Z');
    expect(listFolder(index, 'data/').map((e) => e.path)).toEqual(['data/sub', 'data/points.gpkg']);
    expect(listFolder(index, 'missing')).toEqual([]);
  });

  it('searches every file below the folder', () => {
    expect(listFolder(index, '', 'GPKG').map((e) => e.name)).toEqual([
      'data/points.gpkg',
      'data/sub/lines.gpkg',
    ]);
    expect(listFolder(index, 'data', 'lines').map((e) => e.name)).toEqual(['sub/lines.gpkg']);
  });

  it('sorts folders first, then by name, modification or size', () => {
    const entries: FileEntry[] = [
      { type: 'file', name: 'b.txt', path: 'b.txt', size: 5, mtime: '2024-01-02' },
      { type: 'file', name: 'a10.txt', path: 'a10.txt', size: 9, mtime: '2024-01-01' },
      { type: 'file', name: 'a2.txt', path: 'a2.txt', size: 1, mtime: '2024-01-03' },
      { type: 'folder', name: 'z', path: 'z', size: 0, mtime: null },
    ];
    expect(sortEntries(entries, 'name').map((e) => e.name)).toEqual([
      'z',
      'a2.txt',
      'a10.txt',
      'b.txt',
    ]);
    expect(sortEntries(entries, 'mtime').map((e) => e.name)).toEqual([
      'z',
      'a2.txt',
      'b.txt',
      'a10.txt',
    ]);
    expect(sortEntries(entries, 'size').map((e) => e.name)).toEqual([
      'z',
      'a10.txt',
      'b.txt',
      'a2.txt',
    ]);
  });

  it('keeps a time the server does not know as null: a folder has the latest known one', () => {
    const unknown = buildFolderIndex([
      file('old/a.txt', 1, null),
      file('mixed/a.txt', 1, null),
      file('mixed/b.txt', 1, '2024-05-02T00:00:00Z'),
    ]);
    const [old, mixed] = listFolder(unknown, '');
    expect(mixed).toMatchObject({ name: 'mixed', mtime: '2024-05-02T00:00:00Z' });
    expect(old).toMatchObject({ name: 'old', mtime: null });
    expect(listFolder(unknown, 'old')[0]?.mtime).toBeNull();
    const entries: FileEntry[] = [
      { type: 'file', name: 'unknown.txt', path: 'unknown.txt', size: 1, mtime: null },
      { type: 'file', name: 'known.txt', path: 'known.txt', size: 1, mtime: '2024-01-01' },
    ];
    // Unknown sorts as the oldest.
    expect(sortEntries(entries, 'mtime').map((e) => e.name)).toEqual(['known.txt', 'unknown.txt']);
  });

  it('pages 50 entries at a time', () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    expect(pageOf(items, 1)).toHaveLength(50);
    expect(pageOf(items, 3)).toEqual(items.slice(100));
  });

  it('indexes 10,000 files once and lists folders without rescanning them', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      file(`folder${i % 100}/sub${i % 7}/file${i}.gpkg`, i),
    );
    // Counted, not timed: each file is read once while indexing, and listings read none.
    let reads = 0;
    const counted = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(object, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
          return Reflect.get(object, key, receiver) as unknown;
        },
      });
    const big = buildFolderIndex(counted(many));
    expect(reads).toBe(10_000);
    const index = { ...big, files: counted([...big.files]) };
    reads = 0;
    expect(listFolder(index, '')).toHaveLength(100);
    expect(listFolder(index, 'folder3')).toHaveLength(7);
    for (let i = 0; i < 1000; i += 1) {
      expect(listFolder(index, `folder${i % 100}/sub${i % 7}`).length).toBeGreaterThan(0);
    }
    expect(reads).toBe(0);
  });
});

describe('file-type icons', () => {
  it.each([
    ['a.gpkg', 'geopackage'],
    ['a.sql', 'sql'],
    ['a.qgs', 'qgis'],
    ['a.QGZ', 'qgis'],
    ['a.rar', 'archive'],
    ['a.tif', 'raster'],
    ['a.tiff', 'raster'],
    ['a.xls', 'spreadsheet'],
    ['a.xlsx', 'spreadsheet'],
    ['a.jpg', 'photo'],
    ['a.jpeg', 'photo'],
    ['a.png', 'photo'],
    ['a.csv', 'generic'],
    ['README', 'generic'],
  ])('%s → %s', (name, kind) => {
    expect(fileIconKind({ type: 'file', name })).toBe(kind);
  });
  it('folders have the folder icon', () => {
    expect(fileIconKind({ type: 'folder', name: 'x.gpkg' })).toBe('folder');
  });
});

describe('listChanges (the diff filter)', () => {
  it('lists the changed files under the folder, matching the search', () => {
    const files = [
      { path: 'a.txt', size: 1, mtime: null },
      { path: 'data/b.gpkg', size: 2, mtime: null },
      { path: 'data/c.txt', size: 3, mtime: null },
    ];
    const changes = new Map([
      ['a.txt', 'added' as const],
      ['data/b.gpkg', 'removed' as const],
    ]);
    expect(listChanges(files, changes, '').map((e) => e.name)).toEqual(['a.txt', 'data/b.gpkg']);
    expect(listChanges(files, changes, 'data').map((e) => e.name)).toEqual(['b.gpkg']);
    expect(listChanges(files, changes, '', 'gpkg').map((e) => e.path)).toEqual(['data/b.gpkg']);
  });
});
