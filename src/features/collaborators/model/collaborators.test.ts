// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  isSearchable,
  addSelected,
  clampPage,
  filterMembers,
  pageOf,
  permissionsDocsUrl,
  refusedUsernames,
  shareAccess,
  shareSuggestions,
  sortMembers,
  userLabel,
  type ProjectMember,
  type UserSearchResult,
} from './collaborators';

function member(id: number, username: string, email = `${username}@x.com`): ProjectMember {
  return {
    id,
    type: 'member',
    username,
    email,
    name: '',
    workspace_role: 'reader',
    project_role: 'reader',
    role: 'reader',
    project_permission: 'reader',
    roles: ['reader'],
  };
}

const user = (id: number, username: string, name = ''): UserSearchResult => ({
  id,
  username,
  email: `${username}@x.com`,
  name,
  profile: { first_name: null, last_name: null },
});

describe('members', () => {
  const members = [member(1, 'bob'), member(2, 'Alice', 'al@field.org'), member(3, 'carl')];

  it('are found by username or email, case-insensitively', () => {
    expect(filterMembers(members, 'ALI').map((m) => m.id)).toEqual([2]);
    expect(filterMembers(members, 'field.org').map((m) => m.id)).toEqual([2]);
    expect(filterMembers(members, '  ')).toHaveLength(3);
  });

  it('sort on username A-Z and Z-A', () => {
    expect(sortMembers(members, 'username_asc').map((m) => m.username)).toEqual([
      'Alice',
      'bob',
      'carl',
    ]);
    expect(sortMembers(members, 'username_desc').map((m) => m.username)).toEqual([
      'carl',
      'bob',
      'Alice',
    ]);
  });

  it('page by 10 and never stay on an emptied page', () => {
    const many = Array.from({ length: 21 }, (_, i) => i);
    expect(pageOf(many, 3, 10)).toEqual([20]);
    expect(clampPage(3, 20, 10)).toBe(2);
    expect(clampPage(1, 0, 10)).toBe(1);
  });
});

describe('sharing', () => {
  const access = {
    owners: [1],
    writers: [1, 2],
    readers: [1, 2, 3],
    ownersnames: ['ada'],
    writersnames: ['ada', 'ben'],
    readersnames: ['ada', 'ben', 'cy'],
  };

  it('labels users by name, else username', () => {
    expect(userLabel(user(1, 'jane', 'Jane Doe'))).toBe('Jane Doe');
    expect(userLabel(user(1, 'jane', '  '))).toBe('jane');
  });

  it('suggests neither members, nor selected users, nor duplicates', () => {
    const results = [
      user(2, 'ben'),
      user(7, 'dora'),
      user(7, 'dora'),
      user(8, 'CY'),
      user(9, 'eve'),
    ];
    expect(shareSuggestions(results, access, [user(9, 'eve')]).map((u) => u.id)).toEqual([7]);
  });

  it('selects a user once', () => {
    expect(addSelected([user(7, 'dora')], user(7, 'dora'))).toHaveLength(1);
    expect(addSelected([], user(7, 'dora'))).toHaveLength(1);
  });

  it('sends every role list with the new users in the chosen one', () => {
    expect(shareAccess(access, ['dora', 'Ben'], 'writer')).toEqual({
      ownersnames: ['ada'],
      writersnames: ['ada', 'ben', 'dora'],
      readersnames: ['ada', 'ben', 'cy'],
    });
    expect(shareAccess(undefined, ['dora'], 'reader')).toEqual({
      ownersnames: [],
      writersnames: [],
      readersnames: ['dora'],
    });
  });

  it('reads refused usernames from UpdateProjectAccessError answers only', () => {
    expect(
      refusedUsernames({ code: 'UpdateProjectAccessError', invalid_usernames: ['zed', 3] }),
    ).toEqual(['zed']);
    expect(refusedUsernames({ detail: 'Forbidden' })).toBeNull();
    expect(refusedUsernames(undefined)).toBeNull();
  });

  it('links the permissions documentation', () => {
    expect(permissionsDocsUrl('https://docs.example.com/')).toBe(
      'https://docs.example.com/manage/permissions',
    );
  });
});

describe('user search', () => {
  it('searches from three characters on, as the server does', () => {
    expect(isSearchable('ev')).toBe(false);
    expect(isSearchable('  ev  ')).toBe(false);
    expect(isSearchable('eve')).toBe(true);
    expect(isSearchable('a@b')).toBe(true);
  });
});
