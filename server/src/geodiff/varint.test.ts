import { describe, expect, it } from 'vitest';
import { decodeVarint, encodeVarint, VarintError } from './varint';

describe('SQLite varints', () => {
  it('encodes the documented byte forms', () => {
    expect([...encodeVarint(0)]).toEqual([0]);
    expect([...encodeVarint(127)]).toEqual([0x7f]);
    expect([...encodeVarint(128)]).toEqual([0x81, 0x00]);
    expect([...encodeVarint(300)]).toEqual([0x82, 0x2c]);
  });

  it('round-trips values of every length up to the largest safe integer', () => {
    const values = [0, 1, 127, 128, 16383, 16384, 2 ** 21, 2 ** 28 + 5, 2 ** 42 + 3];
    values.push(2 ** 49 + 1, Number.MAX_SAFE_INTEGER);
    for (const value of values) {
      const bytes = encodeVarint(value);
      expect(bytes.length).toBeLessThanOrEqual(9);
      expect(decodeVarint(Uint8Array.from([9, ...bytes]), 1)).toEqual({
        value,
        length: bytes.length,
      });
    }
    expect(encodeVarint(Number.MAX_SAFE_INTEGER)).toHaveLength(8);
  });

  it('refuses truncated bytes and values it cannot hold', () => {
    expect(() => decodeVarint(Uint8Array.from([0x81]), 0)).toThrow(VarintError);
    expect(() => decodeVarint(Uint8Array.from(Array(9).fill(0xff)), 0)).toThrow(VarintError);
    expect(() => encodeVarint(-1)).toThrow(VarintError);
    expect(() => encodeVarint(1.5)).toThrow(VarintError);
  });
});
