/**
 * Validation rules shared by configuration, the admin CLI and the HTTP API, so a name or
 * address accepted in one place is accepted everywhere.
 */

// Local part as in the HTML/WHATWG email rule; domain: dot-separated labels (at least two,
// ASCII only) or an IP literal in brackets.
const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$/;

export const EMAIL_MAX_LENGTH = 120;

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_RE.test(email);
}

const NAME_CHARS_RE = /^[\w\s\-.]+$/;

/**
 * Username rule (reference §4.4): 4–50 characters of letters, digits, underscore, space,
 * hyphen and dot, not starting with a space or a dot. Returns the problem, or null.
 */
export function usernameError(username: string): string | null {
  if (username.length < 4 || username.length > 50) return 'must be 4 to 50 characters long';
  if (!NAME_CHARS_RE.test(username)) {
    return 'may contain only letters, digits, spaces and the characters _ - .';
  }
  if (/^[\s.]/.test(username)) return 'must not start with a space or a dot';
  return null;
}

/** Workspace names follow the username characters, 2–50 long. Returns the problem, or null. */
export function workspaceNameError(name: string): string | null {
  if (name.length < 2 || name.length > 50) return 'must be 2 to 50 characters long';
  if (!NAME_CHARS_RE.test(name)) {
    return 'may contain only letters, digits, spaces and the characters _ - .';
  }
  if (/^[\s.]/.test(name) || /\s$/.test(name)) {
    return 'must not start with a space or a dot, nor end with a space';
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Form rules of the HTTP API (api-reference §4.4, A.5), with the reference's texts.

export const INVALID_EMAIL_TEXT = 'Invalid email address.';

export function emailInvalidText(email: string): string {
  return `Email address '${email}' is invalid.`;
}

/**
 * The loose syntax check of the reference's first validator (WTForms' Email): one @, a
 * non-empty local part and a dotted domain (or an IP literal), no spaces.
 */
function looksLikeEmail(email: string): boolean {
  const match = /^([^\s@]+)@([^\s@]+)$/u.exec(email);
  if (!match) return false;
  const domain = match[2]!;
  if (/^\[[^\]]+\]$/.test(domain)) return true;
  return /^[^.]+(\.[^.]+)+$/u.test(domain);
}

/**
 * The first failing email rule as the reference words it: 'Invalid email address.' for
 * something that is not an address at all, "Email address 'x' is invalid." for one the
 * stricter rule (ASCII domain, allowed local-part characters, length) refuses. Null = valid.
 */
export function emailError(email: string): string | null {
  if (!looksLikeEmail(email)) return INVALID_EMAIL_TEXT;
  if (!isValidEmail(email)) return emailInvalidText(email);
  return null;
}

export const PROJECT_NAME_EMPTY = 'Project name cannot be empty';
export const PROJECT_NAME_CHARS = 'Please use only alphanumeric or the following -_. characters.';
export const PROJECT_NAME_START = 'Value can not start with space or dot.';
export const PROJECT_NAME_INVALID = 'The provided value is invalid.';

/** Exact, case-sensitive reserved project names (reference A.5). */
export const RESERVED_PROJECT_NAMES: ReadonlySet<string> = new Set([
  'support',
  'helpdesk',
  'merginmaps',
  'lutraconsulting',
  'mergin',
  'lutra',
  'input',
  'admin',
  'sales',
]);

/** Device names no file may be called on Windows (with or without an extension). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|clock\$|com[0-9]|lpt[0-9])$/i;

/** Python's `\w` is Unicode-aware: letters, numbers and underscore. */
const PROJECT_NAME_RE = /^[\p{L}\p{N}_\s\-.]+$/u;

/** Valid as a file name on every platform (the reference uses pathvalidate's rule). */
function isValidFilename(name: string): boolean {
  if (Buffer.byteLength(name, 'utf8') > 255) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f/\\:*?"<>|]/.test(name)) return false;
  if (/[ .]$/.test(name)) return false;
  return !WINDOWS_RESERVED.test(name.split('.')[0]!.trim());
}

/**
 * Project name rule (reference A.5), checked in the reference's order on the trimmed name.
 * Returns the error text, or null when the name is acceptable.
 */
export function projectNameError(name: string): string | null {
  if (name.trim() === '') return PROJECT_NAME_EMPTY;
  if (!PROJECT_NAME_RE.test(name)) return PROJECT_NAME_CHARS;
  if (/^[\s.]/u.test(name)) return PROJECT_NAME_START;
  if (RESERVED_PROJECT_NAMES.has(name) || !isValidFilename(name)) return PROJECT_NAME_INVALID;
  return null;
}

/** A path segment as a database id (at most 9 digits), or null. */
export function idOf(text: string): number | null {
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}
