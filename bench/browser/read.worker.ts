// The ways a worker can read a File to hash it (bench/browser.bench.ts, issue 21): each
// strategy feeds a SHA-1 (hash-wasm's, or the WebAssembly one built from
// src/workers/sha1-wasm that the product uses) and answers the digest and the time taken;
// the `alone` ones hash the same number of bytes from a buffer already in memory (the
// hasher's own speed); `staging` is the product's pass with the upload's staged copy written
// to IndexedDB as it goes (issue 16), removed afterwards.
import { createSHA1 } from 'hash-wasm';
import { deleteStagedFile } from '../../src/db/stagedChunks';
import { db } from '../../src/db/db';
import { stageWhileHashing } from '../../src/db/stageWhileHashing';
import { SHA1_SLICE_SIZE, sha1OfBlob } from '../../src/workers/sha1';
import { createSha1Wasm } from '../../src/workers/sha1-wasm/sha1Wasm';

interface Hasher {
  update(bytes: Uint8Array): void;
}

// This folder is type-checked with the DOM's types: the worker's own, declared here.
declare const FileReaderSync: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer };
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadAnswer): void;
};

import { PRODUCT_READ, PRODUCT_STAGING, type ReadAnswer, type ReadRequest } from './api';

const MiB = 1024 * 1024;

/**
 * Every strategy hands the hasher the same 256 KiB pieces as the product does, so only the
 * way of reading differs (hash-wasm copies its input into its memory: pieces that stay in
 * the CPU's cache hash faster than megabytes at once).
 */
function update(hasher: Hasher, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; at += SHA1_SLICE_SIZE) {
    hasher.update(bytes.subarray(at, at + SHA1_SLICE_SIZE));
  }
}

async function viaStream(file: File, hasher: Hasher): Promise<void> {
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    update(hasher, value);
  }
}

async function viaSlices(file: File, hasher: Hasher, size: number): Promise<void> {
  for (let at = 0; at < file.size; at += size) {
    update(hasher, new Uint8Array(await file.slice(at, at + size).arrayBuffer()));
  }
}

/** The next slice is being read while the current one is hashed. */
async function viaDoubleBuffer(file: File, hasher: Hasher, size: number): Promise<void> {
  const read = (at: number) =>
    at < file.size ? file.slice(at, at + size).arrayBuffer() : Promise.resolve(null);
  let next = read(0);
  for (let at = 0; ; at += size) {
    const current = await next;
    if (!current) return;
    next = read(at + size);
    update(hasher, new Uint8Array(current));
  }
}

function viaFileReaderSync(file: File, hasher: Hasher, size: number): void {
  const reader = new FileReaderSync();
  for (let at = 0; at < file.size; at += size) {
    update(hasher, new Uint8Array(reader.readAsArrayBuffer(file.slice(at, at + size))));
  }
}

/** A BYOB reader of the stream: each read fills (up to) the same buffer, no new chunks. */
async function viaByobReads(file: File, hasher: Hasher, size: number): Promise<void> {
  const reader = file.stream().getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(size);
  for (;;) {
    const { done, value } = await reader.read(new Uint8Array(buffer));
    if (done || !value) return;
    hasher.update(value);
    buffer = value.buffer;
  }
}

function fromMemory(total: number, hasher: Hasher): void {
  const buffer = new Uint8Array(SHA1_SLICE_SIZE);
  for (let at = 0; at < total; at += buffer.length) {
    hasher.update(buffer.subarray(0, Math.min(buffer.length, total - at)));
  }
}

const strategies: Record<string, (file: File, hasher: Hasher) => Promise<void> | void> = {
  'Blob.stream()': viaStream,
  'arrayBuffer() of 4 MiB slices': (f, h) => viaSlices(f, h, 4 * MiB),
  'arrayBuffer() of 16 MiB slices': (f, h) => viaSlices(f, h, 16 * MiB),
  'arrayBuffer() of 64 MiB slices': (f, h) => viaSlices(f, h, 64 * MiB),
  'double-buffered 8 MiB slices': (f, h) => viaDoubleBuffer(f, h, 8 * MiB),
  'double-buffered 16 MiB slices': (f, h) => viaDoubleBuffer(f, h, 16 * MiB),
  'FileReaderSync of 4 MiB slices': (f, h) => viaFileReaderSync(f, h, 4 * MiB),
  'FileReaderSync of 16 MiB slices': (f, h) => viaFileReaderSync(f, h, 16 * MiB),
  'hash-wasm alone (bytes in memory)': (f, h) => fromMemory(f.size, h),
  'Blob.stream() into the WebAssembly SHA-1': viaStream,
  'BYOB reads of 1 MiB into the WebAssembly SHA-1': (f, h) => viaByobReads(f, h, MiB),
  'the WebAssembly SHA-1 alone (bytes in memory)': (f, h) => fromMemory(f.size, h),
};

/** The product's pass, staging the bytes into IndexedDB as the upload does. */
async function productStaging(file: File): Promise<string> {
  const fileId = `bench-${Date.now()}`;
  try {
    return await stageWhileHashing(file, fileId, (onBytes) => sha1OfBlob(file, { onBytes }));
  } finally {
    await deleteStagedFile(db, fileId);
  }
}

scope.onmessage = async (event) => {
  const { strategy, file } = event.data;
  const started = performance.now();
  let sha1: string;
  if (strategy === PRODUCT_READ) {
    sha1 = await sha1OfBlob(file);
  } else if (strategy === PRODUCT_STAGING) {
    sha1 = await productStaging(file);
  } else if (strategy.includes('WebAssembly SHA-1')) {
    const hasher = await createSha1Wasm();
    await strategies[strategy]!(file, hasher);
    sha1 = hasher.digest();
  } else {
    const hasher = await createSHA1();
    hasher.init();
    await strategies[strategy]!(file, hasher);
    sha1 = hasher.digest('hex');
  }
  const answer: ReadAnswer = { strategy, sha1, ms: performance.now() - started };
  scope.postMessage(answer);
};
