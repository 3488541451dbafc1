/**
 * SQLite record varints (the length and count fields of session-extension changesets):
 * big-endian groups of 7 bits with a continuation high bit, at most 9 bytes, the 9th
 * carrying 8 full bits. Values here are non-negative safe integers (lengths and counts), so
 * the writer never needs the 9-byte form and the reader refuses values beyond 2^53.
 */

/** Bytes or a value that are not a varint this module accepts. */
export class VarintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VarintError';
  }
}

/** Encodes a non-negative safe integer. */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new VarintError(`Cannot encode ${value} as a varint`);
  }
  // Safe integers need at most 8 groups of 7 bits (the 9-byte form starts above 2^56).
  let v = BigInt(value);
  const groups: number[] = [];
  do {
    groups.unshift(Number(v & 0x7fn));
    v >>= 7n;
  } while (v > 0n);
  return Uint8Array.from(groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
}

/** Decodes the varint at `offset`: its value and how many bytes it took. */
export function decodeVarint(bytes: Uint8Array, offset: number): { value: number; length: number } {
  let value = 0n;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) throw new VarintError('The changeset ends inside a varint');
    if (i === 8) {
      value = (value << 8n) | BigInt(byte);
      return { value: safe(value), length: 9 };
    }
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) return { value: safe(value), length: i + 1 };
  }
  /* c8 ignore next */
  throw new VarintError('Unreachable');
}

function safe(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new VarintError('Varint too large');
  return Number(value);
}
