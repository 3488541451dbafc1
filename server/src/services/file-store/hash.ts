/** Size and SHA-1 of files on this machine, hashed in the hashing thread (lib/sha1-thread.ts). */
import { open, stat } from 'node:fs/promises';
import { RunningSha1 } from '../../lib/sha1-thread';

export async function hashFileInThread(file: string): Promise<{ size: number; sha1: string }> {
  const { size } = await stat(file);
  const hash = new RunningSha1();
  try {
    await hash.update(
      (async function* () {
        yield { file, offset: 0, length: size };
      })(),
    );
    return { size, sha1: await hash.digest() };
  } finally {
    hash.close();
  }
}

/**
 * Writes `blocks` to `file` (a new file) and returns their size and SHA-1: each block is
 * hashed in the hashing thread once written (the thread reads it back from the page cache:
 * cheaper than copying it to the thread), beside the writing of the next ones.
 */
export async function writeFileHashed(
  blocks: AsyncIterable<Uint8Array>,
  file: string,
): Promise<{ size: number; sha1: string }> {
  const handle = await open(file, 'w');
  const hash = new RunningSha1();
  let size = 0;
  try {
    await hash.update(
      (async function* () {
        for await (const block of blocks) {
          let done = 0;
          while (done < block.length) {
            const { bytesWritten } = await handle.write(
              block,
              done,
              block.length - done,
              size + done,
            );
            done += bytesWritten;
          }
          yield { file, offset: size, length: block.length };
          size += block.length;
        }
      })(),
    );
    return { size, sha1: await hash.digest() };
  } finally {
    hash.close();
    await handle.close();
  }
}
