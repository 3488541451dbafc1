// Worker thread: continues serialized hash-wasm SHA-1 states over the bytes the main thread
// sends (lib/sha1-thread.ts), so the running SHA-1 of uploads never holds up requests.
// Messages: {id, op: 'start', state} (state: a saved state, or null for a new hash),
// {id, op: 'update', bytes}, {id, op: 'file', path, offset, length} (the thread reads the
// bytes itself), {id, op: 'save'} → answers {id, state} or {id, error};
// {id, op: 'drop'} forgets a hash.
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { createSHA1 } from 'hash-wasm';

const READ_PIECE = 4 * 1024 * 1024;
let buffer = null;

/** Feeds `length` bytes of `path` from `offset` into the hasher (blocking reads: this thread only). */
function updateFromFile(hasher, path, offset, length) {
  buffer ??= new Uint8Array(READ_PIECE);
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < length) {
      const want = Math.min(buffer.length, length - done);
      const read = readSync(fd, buffer, 0, want, offset + done);
      if (read === 0) throw new Error('The file is shorter than expected');
      hasher.update(buffer.subarray(0, read));
      done += read;
    }
  } finally {
    closeSync(fd);
  }
}

const hashers = new Map();
let queue = Promise.resolve();

async function handle(message) {
  const { id, op } = message;
  if (op === 'start') {
    const hasher = await createSHA1();
    if (message.state) hasher.load(message.state);
    else hasher.init();
    hashers.set(id, hasher);
    return;
  }
  const hasher = hashers.get(id);
  if (op === 'drop') {
    hashers.delete(id);
    return;
  }
  if (!hasher) {
    if (op === 'save') parentPort.postMessage({ id, error: 'Unknown hash' });
    return;
  }
  if (op === 'update') hasher.update(message.bytes);
  else if (op === 'file') updateFromFile(hasher, message.path, message.offset, message.length);
  else if (op === 'save') {
    hashers.delete(id);
    parentPort.postMessage({ id, state: hasher.save() });
  }
}

parentPort.on('message', (message) => {
  // One message at a time, in the order sent.
  queue = queue
    .then(() => handle(message))
    .catch((error) => {
      hashers.delete(message.id);
      parentPort.postMessage({ id: message.id, error: String(error?.message ?? error) });
    });
});
