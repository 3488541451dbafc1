import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  hashTokenSecret,
  isPersonalToken,
  makePersonalToken,
  personalTokenSecret,
} from './personal-tokens';

describe('personal tokens', () => {
  const expire = new Date('2027-01-02T03:04:05.000Z');

  it('decode as the desktop library decodes tokens: username and a zoned expiry', () => {
    const { token } = makePersonalToken('surveyor', expire);
    // mergin-client's decode_token_data: `Bearer .`, then zlib(JSON) in base64url up to a dot.
    const header = `Bearer ${token}`;
    expect(header.startsWith('Bearer .')).toBe(true);
    const first = header.slice('Bearer .'.length).split('.')[0]!;
    const payload = JSON.parse(inflateSync(Buffer.from(first, 'base64url')).toString('utf8'));
    expect(payload).toEqual({ wmpat: 1, username: 'surveyor', expire: '2027-01-02T03:04:05.000Z' });
  });

  it('are found by the hash of their secret, which is all that is stored', () => {
    const made = makePersonalToken('surveyor', expire);
    const secret = personalTokenSecret(made.token)!;
    expect(secret).toMatch(/^wmpat_[A-Za-z0-9_-]{43}$/);
    expect(hashTokenSecret(secret)).toBe(made.secretHash);
    expect(made.token).not.toContain(made.secretHash);
    expect(made.hint).toBe(secret.slice(0, 10));
    expect(makePersonalToken('surveyor', expire).secretHash).not.toBe(made.secretHash);
  });

  it('are told apart from other tokens', () => {
    expect(isPersonalToken(makePersonalToken('a', expire).token)).toBe(true);
    expect(isPersonalToken('.eJyrVsrJTFWyUkpKTVGqBQAeMwRq.c2lnbmF0dXJl')).toBe(false);
    expect(isPersonalToken('wmpat_short')).toBe(false);
    expect(isPersonalToken(null)).toBe(false);
    expect(isPersonalToken(`x.wmpat_${'a'.repeat(43)}`)).toBe(true);
    expect(isPersonalToken(`${'a'.repeat(2000)}.wmpat_${'a'.repeat(43)}`)).toBe(false);
  });
});
