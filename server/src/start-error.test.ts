import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startErrorText } from './start-error';

describe('the line printed when the server cannot start', () => {
  it('names a taken port', async () => {
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    const { port } = first.address() as { port: number };
    const second = createServer();
    const error = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    first.close();
    expect(startErrorText(error)).toMatch(/EADDRINUSE.*another process uses this port/);
  });

  it('says something for whatever was thrown', () => {
    expect(startErrorText(new Error('Bad DATA_DIR'))).toBe('Bad DATA_DIR');
    expect(startErrorText({ code: 'ECONNREFUSED' })).toBe('ECONNREFUSED');
    expect(startErrorText({ message: 'no database' })).toBe('no database');
    expect(startErrorText('plain text')).toBe('plain text');
    expect(startErrorText(undefined)).toBe('undefined');
    expect(startErrorText({ detail: 1 })).toBe('{"detail":1}');
  });
});
