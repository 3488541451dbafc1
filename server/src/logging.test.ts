/** The pretty log form (logging.ts): one short line an entry, requests only at debug. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prettyStream } from './logging';

function written(showRequests: boolean, lines: object[]): string[] {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const stream = prettyStream(out, showRequests);
  for (const line of lines) stream.write(`${JSON.stringify(line)}\n`);
  return chunks.join('').split('\n').filter(Boolean);
}

const time = Date.UTC(2026, 10, 28, 9, 30, 5);
const request = [
  {
    level: 30,
    time,
    reqId: 'req-1',
    req: { method: 'GET', url: '/v1/user/alice' },
    msg: 'incoming request',
  },
  {
    level: 30,
    time,
    reqId: 'req-1',
    res: { statusCode: 200 },
    responseTime: 12.4,
    msg: 'request completed',
  },
];

describe('the pretty log form', () => {
  it('leaves requests out at the default level', () => {
    expect(written(false, request)).toEqual([]);
  });

  it('makes a request one line at debug', () => {
    const [line] = written(true, request);
    expect(line).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/user\/alice 200 12 ms$/);
  });

  it('writes other entries on one line with their fields, errors with their stack', () => {
    const [info, error, stack] = written(false, [
      { level: 30, time, pid: 1, hostname: 'h', msg: 'Waymark is running', port: 8080 },
      {
        level: 50,
        time,
        msg: 'Changeset could not be computed',
        err: { message: 'disk full', stack: 'Error: disk full\n    at x (y.ts:1:1)' },
      },
    ]);
    expect(info).toMatch(/INFO Waymark is running port=8080$/);
    expect(error).toMatch(/ERROR Changeset could not be computed \(disk full\)$/);
    expect(stack).toBe('Error: disk full');
  });
});
