/** Password rule (spec 000 §5 and §9): at least 8 characters and 3 of the 4 character categories. */
export const PASSWORD_MIN_LENGTH = 8;

export const PASSWORD_RULE_TEXT =
  'At least 8 characters and at least 3 of the 4 categories: lowercase letters, uppercase letters, digits, special characters.';

export function passwordCategories(password: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((pattern) => pattern.test(password))
    .length;
}

/** Whether the password meets the rule as far as the client can tell (the server decides). */
export function meetsPasswordRule(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && passwordCategories(password) >= 3;
}
