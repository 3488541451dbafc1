import { describe, expect, it } from 'vitest';
import { makeToken, passwordFingerprint, readToken } from '../../server/src/auth/tokens';
import { parseSqlOrder, parseSuffixOrder } from '../../server/src/lib/ordering';
import { assertPageExists, pageWindow } from '../../server/src/lib/pagination';
import { emailError, projectNameError } from '../../server/src/lib/validation';
import {
  effectiveProjectRole,
  projectPermissions,
  readableWorkspaceIds,
  workspaceRolesById,
  type ProjectFacts,
} from '../../server/src/services/permissions';
import { timeUntilPurge } from '../../server/src/services/projects';

const SECRET = 'x'.repeat(40);
const HOUR = 3600 * 1000;

describe('link tokens', () => {
  const now = new Date('2024-05-04T12:00:00Z');
  const subject = { userId: 7, email: 'Jane@Example.com', passwordHash: '$argon2id$v=19$abc' };

  it('round-trip the subject', () => {
    const token = makeToken(SECRET, 'confirm-email', subject, now);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(readToken(SECRET, 'confirm-email', token, now)).toEqual({
      userId: 7,
      email: 'Jane@Example.com',
      passwordFingerprint: null,
    });
    const reset = makeToken(SECRET, 'reset-password', subject, now);
    expect(readToken(SECRET, 'reset-password', reset, now)?.passwordFingerprint).toBe(
      passwordFingerprint(SECRET, subject.passwordHash),
    );
  });

  it('expire: reset after 1 hour, confirmation after 12 hours', () => {
    const reset = makeToken(SECRET, 'reset-password', subject, now);
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(readToken(SECRET, 'reset-password', reset, at(HOUR))).not.toBeNull();
    expect(readToken(SECRET, 'reset-password', reset, at(HOUR + 1000))).toBeNull();
    const confirm = makeToken(SECRET, 'confirm-email', subject, now);
    expect(readToken(SECRET, 'confirm-email', confirm, at(12 * HOUR))).not.toBeNull();
    expect(readToken(SECRET, 'confirm-email', confirm, at(12 * HOUR + 1000))).toBeNull();
    // Issued far in the future (forged clock): refused.
    expect(readToken(SECRET, 'confirm-email', confirm, at(-HOUR))).toBeNull();
  });

  it('fail across kinds, keys and tampering', () => {
    const reset = makeToken(SECRET, 'reset-password', subject, now);
    const confirm = makeToken(SECRET, 'confirm-email', subject, now);
    expect(readToken(SECRET, 'confirm-email', reset, now)).toBeNull();
    expect(readToken(SECRET, 'reset-password', confirm, now)).toBeNull();
    expect(readToken('y'.repeat(40), 'confirm-email', confirm, now)).toBeNull();
    const [payload, signature] = confirm.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ p: 'confirm-email', u: 1, e: 'admin@example.com', t: 1714824000 }),
    ).toString('base64url');
    expect(readToken(SECRET, 'confirm-email', `${forged}.${signature}`, now)).toBeNull();
    for (const bad of ['', 'abc', `${payload}.`, `${payload}.${signature}.x`, '..']) {
      expect(readToken(SECRET, 'confirm-email', bad, now)).toBeNull();
    }
  });

  it('do not carry the password hash', () => {
    const reset = makeToken(SECRET, 'reset-password', subject, now);
    const payload = Buffer.from(reset.split('.')[0]!, 'base64url').toString();
    expect(payload).not.toContain('argon2');
  });
});

describe('emailError', () => {
  it.each([
    ['jane@example.com', null],
    ['j.doe+tag@sub.example.org', null],
    ['user@[192.168.0.1]', null],
    ['not-an-email', 'Invalid email address.'],
    ['jane@localhost', 'Invalid email address.'],
    ['jane doe@example.com', 'Invalid email address.'],
    ['a@b@example.com', 'Invalid email address.'],
    ['jane@exa_mple.com', "Email address 'jane@exa_mple.com' is invalid."],
    ['jána@example.com', "Email address 'jána@example.com' is invalid."],
    ['jane@exämple.com', "Email address 'jane@exämple.com' is invalid."],
  ])('%s → %s', (email, expected) => {
    expect(emailError(email)).toBe(expected);
  });
});

describe('projectNameError', () => {
  it.each([
    ['survey', null],
    ['My survey 2024_v1.2-final', null],
    ['Průzkum řek', null],
    ['Admin', null],
    ['', 'Project name cannot be empty'],
    ['   ', 'Project name cannot be empty'],
    ['a/b', 'Please use only alphanumeric or the following -_. characters.'],
    ['what?', 'Please use only alphanumeric or the following -_. characters.'],
    ['.hidden', 'Value can not start with space or dot.'],
    ['admin', 'The provided value is invalid.'],
    ['mergin', 'The provided value is invalid.'],
    ['con', 'The provided value is invalid.'],
    ['LPT1.data', 'The provided value is invalid.'],
    ['ends.', 'The provided value is invalid.'],
    ['tab\tname', 'The provided value is invalid.'],
    ['x'.repeat(256), 'The provided value is invalid.'],
  ])('%j → %s', (name, expected) => {
    expect(projectNameError(name)).toBe(expected);
  });
});

describe('order_params', () => {
  const columns = { name: 'name', updated: 'updated', 'meta.size': 'disk_usage' } as const;

  it('suffix style: _asc ascending, anything else descending, unknown ignored', () => {
    expect(parseSuffixOrder('name_asc,meta.size_desc,bogus_asc,updated', columns)).toEqual([
      { column: 'name', descending: false },
      { column: 'disk_usage', descending: true },
      { column: 'updated', descending: true },
    ]);
    expect(parseSuffixOrder(undefined, columns)).toEqual([]);
  });

  it('SQL style: "<column> <ASC|DESC>", case-insensitive direction, malformed ignored', () => {
    const sqlColumns = { expire: 'expires_at', id: 'id' } as const;
    expect(
      parseSqlOrder('expire desc, id ASC,expire,id  DESC,bogus ASC,id sideways', sqlColumns),
    ).toEqual([
      { column: 'expires_at', descending: true },
      { column: 'id', descending: false },
    ]);
  });
});

describe('pagination', () => {
  it('computes the window and refuses per_page < 1 and pages past the end with 404', () => {
    expect(pageWindow({ page: 3, perPage: 10 })).toEqual({ limit: 10, offset: 20 });
    expect(() => pageWindow({ page: 1, perPage: 0 })).toThrow(/requested URL was not found/);
    expect(() => pageWindow({ page: 2 ** 52, perPage: 100 })).toThrow();
    expect(() => assertPageExists(2, 0)).toThrow(/requested URL was not found/);
    expect(() => assertPageExists(1, 0)).not.toThrow();
  });
});

describe('project permissions', () => {
  const user = { id: 2, isAdmin: false, active: true };
  const base: ProjectFacts = {
    public: false,
    removed: false,
    directRole: null,
    workspaceRole: 'guest',
  };
  const perms = (actor: Parameters<typeof projectPermissions>[0], facts: Partial<ProjectFacts>) =>
    projectPermissions(actor, { ...base, ...facts });

  it('gives anonymous visitors read on public projects only', () => {
    expect(perms(null, { public: true, workspaceRole: null })).toEqual({
      read: true,
      upload: false,
      update: false,
      delete: false,
    });
    expect(perms(null, { workspaceRole: null }).read).toBe(false);
    expect(perms(null, { public: true, removed: true }).read).toBe(false);
  });

  it('ranks direct roles reader < writer < owner', () => {
    expect(effectiveProjectRole(perms(user, {}))).toBeNull();
    expect(effectiveProjectRole(perms(user, { directRole: 'reader' }))).toBe('reader');
    expect(perms(user, { directRole: 'writer' })).toEqual({
      read: true,
      upload: true,
      update: false,
      delete: false,
    });
    expect(effectiveProjectRole(perms(user, { directRole: 'owner' }))).toBe('owner');
  });

  it('maps workspace roles: reader reads, writer uploads, admin owns', () => {
    expect(effectiveProjectRole(perms(user, { workspaceRole: 'reader' }))).toBe('reader');
    expect(effectiveProjectRole(perms(user, { workspaceRole: 'writer' }))).toBe('writer');
    expect(effectiveProjectRole(perms(user, { workspaceRole: 'admin' }))).toBe('owner');
    expect(effectiveProjectRole(perms(user, { workspaceRole: 'owner' }))).toBe('owner');
  });

  it('gives nothing on removed projects and to inactive users, everything to superusers', () => {
    expect(perms(user, { directRole: 'owner', removed: true }).read).toBe(false);
    expect(perms({ ...user, active: false }, { directRole: 'owner' }).read).toBe(false);
    expect(perms({ ...user, isAdmin: true }, { removed: true })).toEqual({
      read: true,
      upload: true,
      update: true,
      delete: true,
    });
  });

  it('finds readable workspaces from roles and GLOBAL_* flags', () => {
    const config = {
      globalWorkspace: 'waymark',
      globalRead: true,
      globalWrite: false,
      globalAdmin: false,
    };
    const rows = [
      { id: 1, name: 'waymark', active: true, memberRole: null },
      { id: 2, name: 'team', active: true, memberRole: 'guest' as const },
      { id: 3, name: 'lab', active: true, memberRole: 'writer' as const },
      { id: 4, name: 'closed', active: false, memberRole: 'owner' as const },
    ];
    expect(readableWorkspaceIds(workspaceRolesById(config, user, rows))).toEqual([1, 3]);
    expect(readableWorkspaceIds(workspaceRolesById(config, null, rows))).toEqual([]);
    expect(
      readableWorkspaceIds(workspaceRolesById(config, { ...user, isAdmin: true }, rows)),
    ).toEqual([1, 2, 3, 4]);
  });
});

describe('timeUntilPurge', () => {
  const removed = new Date('2024-05-01T00:00:00Z');
  const at = (ms: number) => new Date(removed.getTime() + ms);
  it.each([
    [0, '7 days'],
    [5 * 24 * HOUR + 1, '1 day'],
    [6 * 24 * HOUR, '1 day'],
    [6 * 24 * HOUR + 1, '23 hours'],
    [7 * 24 * HOUR - 90 * 60 * 1000, '1 hour'],
    [7 * 24 * HOUR - 1000, 'N/A'],
    [8 * 24 * HOUR, 'N/A'],
  ])('%d ms after removal → %s', (ms, expected) => {
    expect(timeUntilPurge(removed, at(ms))).toBe(expected);
  });
});
