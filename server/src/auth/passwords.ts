/**
 * Password hashing (argon2id, OWASP parameters) and the password strength rule.
 */
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1. */
const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_TOO_SHORT = 'Passwords must be at least 8 characters long.';
export const PASSWORD_TOO_WEAK = 'Password is not strong enough';

/**
 * The password rule: at least 8 characters and at least 3 of the 4 categories lowercase,
 * uppercase, digit, other. Returns the error text, or null when the password is acceptable.
 */
export function validatePassword(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  const categories = [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{L}\p{Nd}]/u].filter((re) =>
    re.test(password),
  ).length;
  if (categories < 3) return PASSWORD_TOO_WEAK;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the same time as a real verification, so a login for an unknown user cannot be
 * told apart from a wrong password by timing.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('Dummy-password-0');
  await verifyPassword(await dummyHash, password);
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
// Only characters that need no quoting in a shell or a URL: the password is printed to be copied.
const OTHER = '-_.+=';

/** A random password of `length` (≥16) characters from all four categories. */
export function generatePassword(length = 20): string {
  const size = Math.max(16, length);
  const all = LOWER + UPPER + DIGITS + OTHER;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(OTHER)];
  while (chars.length < size) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
