/**
 * The share dialog's user search gives what sharing needs and never a list of the
 * instance's users: exact email (with the email), username prefixes of 3+ characters
 * (without emails), exact names; at most 10; ids and short or empty texts find nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import {
  SEARCH_LIMIT,
  SEARCH_MAX_NAMES,
  SEARCH_MIN_PREFIX,
} from '../../server/src/services/collaborators';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Search-Password-1';
let t: TestApp;
let caller: TestClient;

interface Result {
  id: number;
  username: string;
  email: string | null;
}

beforeAll(async () => {
  t = await createTestApp();
  const passwordHash = await hashPassword(PASSWORD);
  await insertUser(t.database.db, {
    username: 'searcher',
    email: 'searcher@example.com',
    passwordHash,
  });
  for (let i = 0; i < 25; i++) {
    await insertUser(t.database.db, {
      username: `surveyor${String(i).padStart(2, '0')}`,
      email: `surveyor${i}@field.org`,
      firstName: 'Sam',
    });
  }
  caller = t.client();
  await caller.login('searcher', PASSWORD);
});
afterAll(async () => t.close());

async function search(query: string): Promise<Result[]> {
  const response = await caller.get(`/app/auth/user/search?namespace=waymark&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('user search limits', () => {
  it(`needs ${SEARCH_MIN_PREFIX}+ characters of a username and answers at most ${SEARCH_LIMIT}, without emails`, async () => {
    for (const like of ['', ' ', 's', 'su', '%', '_', '%25', '__', ' su ']) {
      expect(await search(`like=${encodeURIComponent(like)}`), like).toEqual([]);
    }
    const found = await search('like=sur');
    expect(found).toHaveLength(SEARCH_LIMIT);
    expect(found.every((user) => user.username.startsWith('sur'))).toBe(true);
    expect(found.every((user) => user.email === null)).toBe(true);
  });

  it('finds no one by a pattern in the middle, by first name, or by an email part', async () => {
    expect(await search('like=veyor')).toEqual([]);
    expect(await search('like=Sam')).toEqual([]);
    expect(await search('like=field.org')).toEqual([]);
    expect(await search(`like=${encodeURIComponent('@field.org')}`)).toEqual([]);
    expect(await search(`like=${encodeURIComponent('%@field.org')}`)).toEqual([]);
  });

  it('shows the email on an exact email match only (any case)', async () => {
    const [user, ...rest] = await search(`like=${encodeURIComponent('SURVEYOR7@field.org')}`);
    expect(rest).toEqual([]);
    expect(user).toMatchObject({ username: 'surveyor07', email: 'surveyor7@field.org' });
  });

  it('shows the caller their own email', async () => {
    expect(await search('like=searcher')).toMatchObject([
      { username: 'searcher', email: 'searcher@example.com' },
    ]);
  });

  it('answers ids with nobody (no listing by sequential ids)', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => i + 1).join(',');
    expect(await search(`id=${ids}`)).toEqual([]);
  });

  it(`looks up at most ${SEARCH_MAX_NAMES} exact names, without emails`, async () => {
    const names = (n: number) =>
      Array.from({ length: n }, (_, i) => `surveyor${String(i).padStart(2, '0')}`).join(',');
    const found = await search(`names=${names(3)}`);
    expect(found.map((user) => user.username)).toEqual(['surveyor00', 'surveyor01', 'surveyor02']);
    expect(found.every((user) => user.email === null)).toBe(true);
    expect(await search(`names=${names(SEARCH_MAX_NAMES + 1)}`)).toEqual([]);
  });
});
