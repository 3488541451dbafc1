// Worker thread: running SHA-1s (Node's own, OpenSSL) continued over the bytes the main
// thread sends (lib/sha1-thread.ts), so the file SHA-1 of uploads never holds up requests.
// Messages, in order per hash id: {id, op: 'open'}, {id, op: 'update', bytes},
// {id, op: 'file', path, offset, length} (the thread reads the bytes itself),
// {id, op: 'mark', call} → {call} once everything before is hashed (or {call, error}),
// {id, op: 'digest', call} → {call, sha1} (the hash goes on), {id, op: 'close'}.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const READ_PIECE = 4 * 1024 * 1024;
let buffer = null;

/** Feeds `length` bytes of `path` from `offset` into the hash (blocking reads: this thread only). */
function updateFromFile(hash, path, offset, length) {
  buffer ??= new Uint8Array(READ_PIECE);
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < length) {
      const want = Math.min(buffer.length, length - done);
      const read = readSync(fd, buffer, 0, want, offset + done);
      if (read === 0) throw new Error('The file is shorter than expected');
      hash.update(buffer.subarray(0, read));
      done += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** id → {hash, error}: a hash whose bytes failed keeps the error for its next answer. */
const hashes = new Map();

parentPort.on('message', (message) => {
  const { id, op } = message;
  if (op === 'open') {
    hashes.set(id, { hash: createHash('sha1'), error: null });
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
    else parentPort.postMessage({ call: message.call, sha1: entry.hash.copy().digest('hex') });
    return;
  }
  if (!entry || entry.error) return;
  try {
    if (op === 'update') entry.hash.update(message.bytes);
    else if (op === 'file')
      updateFromFile(entry.hash, message.path, message.offset, message.length);
  } catch (error) {
    entry.error = String(error?.message ?? error);
  }
});
