import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store';
import { releaseChunkBytes } from './staging';
import { LocalUploadStaging } from './upload-staging';

const OWNER = '7d444840-9dc0-11d1-b245-5ffdce74fad2';

function pattern(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i + 4 <= length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
  return bytes;
}

describe('LocalUploadStaging.writeChunk', () => {
  it('stages a chunk received from a connection byte for byte, freeing each body piece once copied', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'waymark-staging-'));
    const staging = new LocalUploadStaging(dir, {} as BlobStore);
    const content = pattern(3 * 1024 * 1024 + 77);
    const pieces: Buffer[] = [];
    const server = createServer((incoming, answer) => {
      // Beside the staging's own reader, once it reads (a reader of ours would start the flow).
      const watch = (event: string | symbol) => {
        if (event !== 'data') return;
        incoming.off('newListener', watch);
        incoming.on('data', (piece: Buffer) => pieces.push(piece));
      };
      incoming.on('newListener', watch);
      staging
        .writeChunk(OWNER, 0, 0, incoming, {
          limit: content.length,
          truncate: true,
          keep: content.length,
        })
        .then(
          (written) => {
            if (written.bytes) releaseChunkBytes(written.bytes);
            answer.end(JSON.stringify({ size: written.size, sha1: written.sha1 }));
          },
          (error: Error) => {
            answer.statusCode = 500;
            answer.end(error.message);
          },
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const sent = request({ host: '127.0.0.1', port, method: 'POST' }, (reply) => {
          let text = '';
          reply.setEncoding('utf8');
          reply.on('data', (part: string) => (text += part));
          reply.on('end', () => resolve(text));
        });
        sent.on('error', reject);
        sent.end(content);
      });
      expect(JSON.parse(answer)).toEqual({
        size: content.length,
        sha1: createHash('sha1').update(content).digest('hex'),
      });
      const staged = await readFile(staging.fileOf(OWNER, 0));
      expect(staged.equals(content)).toBe(true);
      // Every piece the parser gave was freed once copied (it reads as empty now).
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.every((piece) => piece.length === 0)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
