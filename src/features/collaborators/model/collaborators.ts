/**
 * Project members and sharing (spec 001 §2 "Collaborators tab" and "Share dialog", §3, §5, §9;
 * the shapes in docs/decisions/0041-collaboration-api.md).
 */
import type { ProjectRoleName } from '@/lib/permissions';

import type { Member, UserSearchResult } from '@contract/collaborators';
import type { AccessSettings } from '@contract/projects';
import { UPDATE_ACCESS_ERROR_CODE, USER_SEARCH_MIN_LENGTH } from '@contract/protocol';

/** One row of GET /app/project/{id}/access (`@contract/collaborators`). */
export type ProjectMember = Member;

/** One result of GET /app/auth/user/search (`@contract/collaborators`). */
export type { UserSearchResult };

/**
 * The project's access lists (inclusive, direct members) as the project detail gives them; the
 * settings body's partial shape (`@contract/projects`), as callers may know none or some lists.
 */
export type ProjectAccessLists = AccessSettings;

export const MEMBERS_PER_PAGE = 10;
export const NO_MEMBERS = 'No members found.';

export const GET_ACCESS_FALLBACK = 'Failed to get project access';
export const updateAccessForUserFallback = (username: string) =>
  `Failed to update project access for user ${username}`;
export const SHARE_FALLBACK = 'Failed to save project settings';
export const SHARED = 'Following users have been added to the project';
/** The spec's success text, followed by whom it names (the text says "following users"). */
export const sharedWith = (usernames: readonly string[]) => `${SHARED}: ${usernames.join(', ')}`;
/** Removing a member: the confirmation and its outcome. */
export const removeMemberTitle = (username: string) => `Remove ${username}?`;
export const removeMemberText = (username: string) =>
  `${username} will no longer have access to this project through a project role.`;
export const REMOVE = 'Remove';
export const memberRemoved = (username: string) => `${username} was removed from the project`;
/** A member's project role changed. */
export const roleChanged = (username: string, role: string) =>
  `${username} now has ${role} permissions on this project`;
export const SHARE_REFUSED = 'Unable to share project with the following users';

/** Share dialog hints (spec 001 §2). */
export const NO_MATCHES = 'No matches found - Try using their emails instead';
export const NOT_THE_RIGHT_PERSON = 'Not the right person? Try typing their email instead';
export const SHARE_WITH_PLACEHOLDER = 'Search users by username or email';

/** Autocomplete of the share dialog (spec 001 §5, §9). */
/** The share dialog searches from USER_SEARCH_MIN_LENGTH characters on (the server's minimum). */
export function isSearchable(text: string): boolean {
  return [...text.trim()].length >= USER_SEARCH_MIN_LENGTH;
}
export const USER_SEARCH_DELAY_MS = 300;
export const SUGGESTIONS_MAX_HEIGHT = 200;

export const ROLE_LABELS: Record<ProjectRoleName, string> = {
  reader: 'Reader',
  writer: 'Writer',
  owner: 'Owner',
};

/** Share roles: reader (default), writer, owner (spec 001 §6). */
export const DEFAULT_SHARE_ROLE: ProjectRoleName = 'reader';

export type MemberSort = 'username_asc' | 'username_desc';
export const MEMBER_SORT_OPTIONS: readonly { value: MemberSort; label: string }[] = [
  { value: 'username_asc', label: 'Sort by name A-Z' },
  { value: 'username_desc', label: 'Sort by name Z-A' },
];

/** The label of a user: the name, or the username when there is no name (spec 001 §2). */
export function userLabel(user: Pick<UserSearchResult, 'username' | 'name'>): string {
  const name = user.name.trim();
  return name ? name : user.username;
}

/** Members whose username or email contains the search text (case-insensitive). */
export function filterMembers(members: readonly ProjectMember[], search: string): ProjectMember[] {
  const text = search.trim().toLowerCase();
  if (!text) return [...members];
  return members.filter((member) =>
    [member.username, member.email].some((value) => value?.toLowerCase().includes(text)),
  );
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Sorted on username (spec 001 §2). */
export function sortMembers(members: readonly ProjectMember[], sort: MemberSort): ProjectMember[] {
  const sign = sort === 'username_desc' ? -1 : 1;
  return [...members].sort((a, b) => sign * collator.compare(a.username, b.username));
}

/** One page of a list (1-based). */
export function pageOf<T>(items: readonly T[], page: number, perPage: number): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}

/** The last page that still has items, so a shrinking list never shows an empty page. */
export function clampPage(page: number, count: number, perPage: number): number {
  return Math.min(page, Math.max(1, Math.ceil(count / perPage)));
}

/** Usernames and ids of the project's members: the user search leaves them out (spec 001 §5). */
export function memberKeys(access: ProjectAccessLists | undefined): {
  ids: Set<number>;
  names: Set<string>;
} {
  const ids = new Set([
    ...(access?.readers ?? []),
    ...(access?.writers ?? []),
    ...(access?.owners ?? []),
  ]);
  const names = new Set(
    [
      ...(access?.readersnames ?? []),
      ...(access?.writersnames ?? []),
      ...(access?.ownersnames ?? []),
    ].map((name) => name.toLowerCase()),
  );
  return { ids, names };
}

/**
 * Suggestions of the share dialog: current members, already selected users and duplicates left
 * out (spec 001 §5).
 */
export function shareSuggestions(
  results: readonly UserSearchResult[],
  access: ProjectAccessLists | undefined,
  selected: readonly UserSearchResult[],
): UserSearchResult[] {
  const members = memberKeys(access);
  const taken = new Set(selected.map((user) => user.id));
  const seen = new Set<number>();
  return results.filter((user) => {
    if (seen.has(user.id) || taken.has(user.id)) return false;
    seen.add(user.id);
    return !members.ids.has(user.id) && !members.names.has(user.username.toLowerCase());
  });
}

/** Adds a user to the selection unless already there (duplicates removed, spec 001 §5). */
export function addSelected(
  selected: readonly UserSearchResult[],
  user: UserSearchResult,
): UserSearchResult[] {
  return selected.some((other) => other.id === user.id) ? [...selected] : [...selected, user];
}

const ROLE_LIST_KEY: Record<ProjectRoleName, 'ownersnames' | 'writersnames' | 'readersnames'> = {
  owner: 'ownersnames',
  writer: 'writersnames',
  reader: 'readersnames',
};

/**
 * The `access` of PUT /v1/project/{ns}/{name} that adds `usernames` with `role` (spec 001 §7
 * "Save access by role name"). Every role list is sent as it is, the chosen one with the new
 * names: the server replaces each listed role's members and gives a user listed under several
 * roles the highest, so nobody else's role changes.
 */
export function shareAccess(
  access: ProjectAccessLists | undefined,
  usernames: readonly string[],
  role: ProjectRoleName,
): { ownersnames: string[]; writersnames: string[]; readersnames: string[] } {
  const lists = {
    ownersnames: [...(access?.ownersnames ?? [])],
    writersnames: [...(access?.writersnames ?? [])],
    readersnames: [...(access?.readersnames ?? [])],
  };
  const key = ROLE_LIST_KEY[role];
  const present = new Set(lists[key].map((name) => name.toLowerCase()));
  for (const name of usernames) {
    if (present.has(name.toLowerCase())) continue;
    present.add(name.toLowerCase());
    lists[key].push(name);
  }
  return lists;
}

/** The usernames the server refused (UpdateProjectAccessError), or null for other errors. */
export function refusedUsernames(data: unknown): string[] | null {
  if (typeof data !== 'object' || data === null) return null;
  const value = data as { code?: unknown; invalid_usernames?: unknown };
  if (value.code !== UPDATE_ACCESS_ERROR_CODE) return null;
  return Array.isArray(value.invalid_usernames)
    ? value.invalid_usernames.filter((name): name is string => typeof name === 'string')
    : [];
}

/** The documentation page about permissions (spec 001 §2: docs address + /manage/permissions). */
export function permissionsDocsUrl(docsUrl: string): string {
  return `${docsUrl.replace(/\/+$/, '')}/manage/permissions`;
}
