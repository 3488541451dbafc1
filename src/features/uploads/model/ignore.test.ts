import { describe, expect, it } from 'vitest';
import { isIgnored } from './ignore';

describe('isIgnored', () => {
  it('ignores names ending with shm, wal, ~, pyc or swap', () => {
    for (const path of [
      'data/survey.gpkg-shm',
      'survey.gpkg-wal',
      'notes.txt~',
      'a/b.pyc',
      'x.swap',
    ])
      expect(isIgnored(path)).toBe(true);
  });

  it('keeps ordinary files', () => {
    for (const path of ['survey.gpkg', 'data/shmoo.txt', 'walls.csv', 'project.qgz'])
      expect(isIgnored(path)).toBe(false);
  });

  it("applies the server's blacklists of folder and file names", () => {
    const blacklists = { dirs: ['.mergin'], files: ['.DS_Store', '.directory'] };
    expect(isIgnored('.mergin/state.json', blacklists)).toBe(true);
    expect(isIgnored('data/.mergin/x.json', blacklists)).toBe(true);
    expect(isIgnored('photos/.DS_Store', blacklists)).toBe(true);
    expect(isIgnored('.directory', blacklists)).toBe(true);
    expect(isIgnored('mergin.txt', blacklists)).toBe(false);
    expect(isIgnored('.DS_Store')).toBe(false);
  });
});
