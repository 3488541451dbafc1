import { createHmac } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  BEARER_TTL_MS,
  bearerTokenOf,
  bearerUserMatches,
  makeBearerToken,
  readBearerToken,
} from './bearer';

const SECRET = 'a-secret-key-of-at-least-thirty-two-characters';
const NOW = new Date('2026-03-01T10:00:00.000Z');
const USER = {
  id: 7,
  username: 'jane',
  email: 'jane@example.com',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  active: true,
};

function sign(body: string): string {
  const key = createHmac('sha256', SECRET).update('waymark/token/bearer').digest();
  return createHmac('sha256', key).update(body).digest('base64url');
}

describe('bearer tokens', () => {
  it('round-trip, with a zlib payload behind a leading dot that names the user', () => {
    const { token, expire } = makeBearerToken(SECRET, USER, NOW);
    expect(token.startsWith('.')).toBe(true);
    expect(expire.getTime()).toBe(NOW.getTime() + BEARER_TTL_MS);
    const inner = JSON.parse(
      inflateSync(Buffer.from(token.slice(1).split('.')[0]!, 'base64url')).toString(),
    );
    expect(inner).toMatchObject({ user_id: 7, username: 'jane', expire: expire.toISOString() });
    const payload = readBearerToken(SECRET, token, NOW);
    expect(payload).not.toBeNull();
    expect(bearerUserMatches(SECRET, payload!, USER)).toBe(true);
  });

  it('refuse another key, a changed payload, expiry and malformed tokens', () => {
    const { token } = makeBearerToken(SECRET, USER, NOW);
    expect(readBearerToken(`${SECRET}x`, token, NOW)).toBeNull();
    const [, body, signature] = token.split('.');
    const forged = `.${deflateSync(Buffer.from('{"user_id":1}')).toString('base64url')}`;
    expect(readBearerToken(SECRET, `${forged}.${signature}`, NOW)).toBeNull();
    expect(readBearerToken(SECRET, token, new Date(NOW.getTime() + BEARER_TTL_MS))).toBeNull();
    for (const bad of ['', '.', '..', `.${body}`, `.${body}.${signature}.x`, 'x'.repeat(5000)]) {
      expect(readBearerToken(SECRET, bad, NOW), bad.slice(0, 20)).toBeNull();
    }
  });

  it('accept an uncompressed payload signed with the key', () => {
    const json = JSON.stringify({
      user_id: 7,
      username: 'jane',
      email: 'jane@example.com',
      expire: '2026-03-01T12:00:00+00:00',
      pwd: 'x',
    });
    const body = Buffer.from(json).toString('base64url');
    expect(readBearerToken(SECRET, `${body}.${sign(body)}`, NOW)).toMatchObject({ user_id: 7 });
  });

  it('refuse a well-signed payload missing fields or with a zone-less garbage expiry', () => {
    const body = `.${deflateSync(Buffer.from('{"user_id":7,"username":"jane"}')).toString('base64url')}`;
    expect(readBearerToken(SECRET, `${body}.${sign(body)}`, NOW)).toBeNull();
    const bad = `.${deflateSync(
      Buffer.from(
        JSON.stringify({ user_id: 7, username: 'j', email: null, expire: 'soon', pwd: 'x' }),
      ),
    ).toString('base64url')}`;
    expect(readBearerToken(SECRET, `${bad}.${sign(bad)}`, NOW)).toBeNull();
  });

  it('stop matching after a password change, a rename, or closing the account', () => {
    const payload = readBearerToken(SECRET, makeBearerToken(SECRET, USER, NOW).token, NOW)!;
    expect(
      bearerUserMatches(SECRET, payload, { ...USER, passwordHash: `${USER.passwordHash}2` }),
    ).toBe(false);
    expect(bearerUserMatches(SECRET, payload, { ...USER, username: 'jane2' })).toBe(false);
    expect(bearerUserMatches(SECRET, payload, { ...USER, email: 'other@example.com' })).toBe(false);
    expect(bearerUserMatches(SECRET, payload, { ...USER, active: false })).toBe(false);
    expect(bearerUserMatches(SECRET, payload, { ...USER, passwordHash: null })).toBe(false);
  });

  it('read the token from an Authorization header', () => {
    expect(bearerTokenOf('Bearer .abc.def')).toBe('.abc.def');
    expect(bearerTokenOf('bearer  .abc.def ')).toBe('.abc.def');
    expect(bearerTokenOf('Basic abc')).toBeNull();
    expect(bearerTokenOf(undefined)).toBeNull();
  });
});
