import { describe, expect, it } from 'vitest';
import { filenameFromContentDisposition, readPrefix } from './download';

describe('downloads', () => {
  it('reads the file name of Content-Disposition', () => {
    expect(
      filenameFromContentDisposition("attachment; filename*=UTF-8''my%20survey.gpkg", 'x'),
    ).toBe('my survey.gpkg');
    expect(filenameFromContentDisposition('attachment; filename="a.txt"', 'x')).toBe('a.txt');
    expect(filenameFromContentDisposition(null, 'fallback.txt')).toBe('fallback.txt');
  });
  it('reads only the first bytes of a body', async () => {
    const response = new Response('abcdefghij'.repeat(1000));
    const bytes = await readPrefix(response, 15);
    expect(new TextDecoder().decode(bytes)).toBe('abcdefghijabcde');
  });
});
