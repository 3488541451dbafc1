/** Email helpers (spec 000 §5: email pattern and email lists). */

// A standard local part, then @, then a domain name or an IP literal in brackets.
const EMAIL_PATTERN =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** Splits a list of emails on whitespace, commas or semicolons. */
export function splitEmails(value: string): string[] {
  return value.split(/[\s,;]+/).filter(Boolean);
}

/** Joins emails with the default separator, a semicolon. */
export function joinEmails(emails: readonly string[], separator = ';'): string {
  return emails.join(separator);
}
