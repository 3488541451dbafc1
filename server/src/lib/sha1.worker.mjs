// Worker thread: SHA-1s (Node's own, OpenSSL) continued over the bytes the main thread
// sends (lib/sha1-thread.ts), so hashing never holds up requests: the file SHA-1 of uploads
// and each chunk's SHA-1 with its SHA-256 leaf (`leaf`: both hashes take the same bytes).
// Messages, in order per hash id: {id, op: 'open', leaf?}, {id, op: 'update', bytes},
// {id, op: 'file', path, offset, length} (the thread reads the bytes itself),
// {id, op: 'mark', call} → {call} once everything before is hashed (or {call, error}),
// {id, op: 'digest', call} → {call, sha1, sha256?} (the hash goes on), {id, op: 'close'}.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const READ_PIECE = 4 * 1024 * 1024;
let buffer = null;

/** Feeds `length` bytes of `path` from `offset` into the hashes (blocking reads: this thread only). */
function updateFromFile(entry, path, offset, length) {
  buffer ??= new Uint8Array(READ_PIECE);
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < length) {
      const want = Math.min(buffer.length, length - done);
      const read = readSync(fd, buffer, 0, want, offset + done);
      if (read === 0) throw new Error('The file is shorter than expected');
      update(entry, buffer.subarray(0, read));
      done += read;
    }
  } finally {
    closeSync(fd);
  }
}

function update(entry, bytes) {
  entry.hash.update(bytes);
  entry.leaf?.update(bytes);
}

/** id → {hash, leaf, error}: a hash whose bytes failed keeps the error for its next answer. */
const hashes = new Map();

parentPort.on('message', (message) => {
  const { id, op } = message;
  if (op === 'open') {
    const leaf = message.leaf ? createHash('sha256') : null;
    hashes.set(id, { hash: createHash('sha1'), leaf, error: null });
    return;
  }
  if (op === 'close') {
    hashes.delete(id);
    return;
  }
  const entry = hashes.get(id);
  if (op === 'mark' || op === 'digest') {
    const error = entry ? entry.error : 'Unknown hash';
    if (error) parentPort.postMessage({ call: message.call, error });
    else if (op === 'mark') parentPort.postMessage({ call: message.call });
    else
      parentPort.postMessage({
        call: message.call,
        sha1: entry.hash.copy().digest('hex'),
        sha256: entry.leaf?.copy().digest('hex'),
      });
    return;
  }
  if (!entry || entry.error) return;
  try {
    if (op === 'update') update(entry, message.bytes);
    else if (op === 'file') updateFromFile(entry, message.path, message.offset, message.length);
  } catch (error) {
    entry.error = String(error?.message ?? error);
  }
});
