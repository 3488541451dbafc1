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
