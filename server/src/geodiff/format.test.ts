import { describe, expect, it } from 'vitest';
import { ChangesetFormatError, readChangeset, writeChangeset, type Changeset } from './format';

const sample: Changeset = [
  {
    name: 'trees',
    pk: [true, false, false, false, false],
    changes: [
      {
        op: 'insert',
        indirect: false,
        new: [3n, 'oak ø', 12.5, Uint8Array.from([0x47, 0x50, 0, 1]), null],
      },
      {
        op: 'update',
        indirect: true,
        old: [1n, 'elm', undefined, undefined, undefined],
        new: [undefined, 'ash', undefined, undefined, undefined],
      },
      {
        op: 'delete',
        indirect: false,
        old: [-9007199254740993n, '', -0.25, new Uint8Array(0), null],
      },
    ],
  },
  { name: 'visits', pk: [true, true], changes: [{ op: 'insert', indirect: false, new: [1n, 2n] }] },
];

describe('changeset format', () => {
  it('writes the documented bytes for a table header and an insert', () => {
    const bytes = writeChangeset([
      {
        name: 't',
        pk: [true, false],
        changes: [{ op: 'insert', indirect: false, new: [1n, 'a'] }],
      },
    ]);
    expect([...bytes]).toEqual([
      0x54, 2, 1, 0, 0x74, 0, 0x12, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0x03, 1, 0x61,
    ]);
  });

  it('round-trips every operation and value type', () => {
    const bytes = writeChangeset(sample);
    expect(readChangeset(bytes)).toEqual(sample);
    expect(writeChangeset(readChangeset(bytes))).toEqual(bytes);
  });

  it('reads an empty changeset as no tables', () => {
    expect(readChangeset(new Uint8Array(0))).toEqual([]);
  });

  it('answers every truncation or corruption of a changeset with a ChangesetFormatError or a parse', () => {
    const bytes = writeChangeset(sample);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 2000; i++) {
      const copy = Uint8Array.from(bytes.subarray(0, Math.floor(random() * (bytes.length + 1))));
      if (copy.length > 0 && i % 2 === 0) {
        copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      }
      try {
        readChangeset(copy);
      } catch (error) {
        expect(error).toBeInstanceOf(ChangesetFormatError);
      }
    }
  });

  it('refuses corrupt bytes with a clear error', () => {
    const bytes = writeChangeset(sample);
    expect(() => readChangeset(bytes.subarray(0, bytes.length - 3))).toThrow(ChangesetFormatError);
    expect(() => readChangeset(Uint8Array.from([0x12, 0]))).toThrow(/does not start with a table/);
    expect(() => readChangeset(Uint8Array.from([0x54, 1, 1, 0x74, 0, 0x12, 0, 0x07]))).toThrow(
      /Invalid field type 7/,
    );
    expect(() => readChangeset(Uint8Array.from([0x54, 1, 1, 0x74]))).toThrow(/Unterminated/);
    expect(() => readChangeset(Uint8Array.from([0x54, 0, 0x74, 0]))).toThrow(/column count/);
    expect(() => readChangeset(Uint8Array.from([0x54, 1, 1, 0x74, 0, 0x33, 0]))).toThrow(
      /Invalid operation/,
    );
    // A text claiming more bytes than there are.
    expect(() =>
      readChangeset(Uint8Array.from([0x54, 1, 1, 0x74, 0, 0x12, 0, 0x03, 0x8f, 0x7f, 0x61])),
    ).toThrow(ChangesetFormatError);
  });
});
