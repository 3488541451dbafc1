import { describe, expect, it } from 'vitest';
import { filesOfInput, takeDrop } from './readDrop';

function fileEntry(fullPath: string, text: string) {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (resolve: (file: File) => void) => resolve(new File([text], name)),
  };
}

/** A directory whose reader answers in batches, then an empty batch. */
function directoryEntry(fullPath: string, batches: unknown[][]) {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
    fullPath,
    createReader: () => {
      const queue = [...batches, []];
      return {
        readEntries: (resolve: (entries: unknown[]) => void) => resolve(queue.shift() ?? []),
      };
    },
  };
}

const item = (entry: unknown, kind = 'file') => ({
  kind,
  webkitGetAsEntry: () => entry,
  getAsFile: () => null,
});

describe('reading drops', () => {
  it('reads folders recursively, calling readEntries until it returns nothing', async () => {
    const photos = directoryEntry('/survey/photos', [[fileEntry('/survey/photos/a.jpg', 'aa')]]);
    const survey = directoryEntry('/survey', [
      [fileEntry('/survey/notes.txt', 'n'), photos],
      [fileEntry('/survey/late.csv', 'csv')],
    ]);
    const dropped = takeDrop({
      items: [item(survey), item(fileEntry('/loose.txt', 'l'))],
      files: [],
    } as unknown as DataTransfer);
    expect(dropped.kinds).toEqual(['file', 'file']);
    const files = await dropped.read();
    expect(files.map((f) => [f.relativePath, f.size])).toEqual([
      ['survey/notes.txt', 1],
      ['survey/photos/a.jpg', 2],
      ['survey/late.csv', 3],
      ['loose.txt', 1],
    ]);
  });

  it('keeps the kinds of items that are not files for the refusal', () => {
    const dropped = takeDrop({
      items: [item(null, 'string')],
      files: [],
    } as unknown as DataTransfer);
    expect(dropped.kinds).toEqual(['string']);
  });

  it('takes relative paths from a folder picker', () => {
    const file = new File(['x'], 'a.txt');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'survey/data/a.txt' });
    expect(filesOfInput([file, new File(['yy'], 'b.txt')]).map((f) => f.relativePath)).toEqual([
      'survey/data/a.txt',
      'b.txt',
    ]);
  });
});
