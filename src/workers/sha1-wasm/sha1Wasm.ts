/**
 * SHA-1 with the module built from ./assembly/sha1.ts (./sha1.wasm, inlined into the worker's
 * bundle by Vite's `?inline`, so no request and no extra CSP source: only the
 * 'wasm-unsafe-eval' hash-wasm needed already). Each update copies the bytes once into the
 * module's memory and hashes them there; the module is compiled once per worker and each
 * hasher is an instance of its own (17 pages of memory, about 1.1 MB).
 */
// The ambient module for Vite's `?url&inline`, seen by every tsconfig that reaches this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./wasm-inline.d.ts" />
import wasmDataUrl from './sha1.wasm?url&inline';

interface Sha1Exports {
  memory: { buffer: ArrayBuffer };
  inputOffset(): number;
  inputSize(): number;
  digestOffset(): number;
  init(): void;
  update(size: number): void;
  final(): void;
}

export interface Sha1Hasher {
  /** Starts a new digest (a new hasher is ready without it). */
  init(): void;
  update(bytes: Uint8Array): void;
  /** Hex digest of the bytes since init(); the hasher must be init() again before reuse. */
  digest(): string;
}

/**
 * The part of the WebAssembly API used here, declared so this file type-checks the same with
 * the worker's, the DOM's and Node's types (the tests run it in Node).
 */
interface WasmApi {
  compile(bytes: Uint8Array<ArrayBuffer>): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ exports: object }>;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: Promise<object> | undefined;

function wasmBytes(dataUrl: string): Uint8Array<ArrayBuffer> {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A new SHA-1 hasher, ready for update(). */
export async function createSha1Wasm(): Promise<Sha1Hasher> {
  compiled ??= wasmApi.compile(wasmBytes(wasmDataUrl));
  const instance = await wasmApi.instantiate(await compiled, {});
  const wasm = instance.exports as unknown as Sha1Exports;
  const memory = new Uint8Array(wasm.memory.buffer);
  const input = wasm.inputOffset();
  const capacity = wasm.inputSize();
  const digestAt = wasm.digestOffset();
  wasm.init();
  return {
    init: () => wasm.init(),
    update(bytes) {
      for (let at = 0; at < bytes.length; at += capacity) {
        const piece = bytes.subarray(at, at + capacity);
        memory.set(piece, input);
        wasm.update(piece.length);
      }
    },
    digest() {
      wasm.final();
      let hex = '';
      for (let i = 0; i < 20; i++) hex += HEX[memory[digestAt + i]!];
      return hex;
    },
  };
}
