/** Size and SHA-1 of a file on this machine, hashed in the hashing thread (lib/sha1-thread.ts). */
import { stat } from 'node:fs/promises';
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
