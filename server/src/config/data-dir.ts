/**
 * The configuration's side effects, run once every value has passed: DATA_DIR is created when
 * missing, and without SECRET_KEY a random key is generated once and kept in
 * DATA_DIR/secret_key (mode 0600), so sessions and CSRF tokens survive restarts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, quoted, type Env } from './read';

const SECRET_FILE = 'secret_key';
const SECRET_MIN_LENGTH = 32;

/** SECRET_KEY when set (at least 32 characters), or null: then storedSecretKey gives one. */
export function readSecretKey(env: Env): string | null {
  const raw = env.SECRET_KEY;
  if (raw === undefined || raw === '') return null;
  if (raw.length < SECRET_MIN_LENGTH) {
    throw new ConfigError(
      'SECRET_KEY',
      `SECRET_KEY must be at least ${SECRET_MIN_LENGTH} characters long (got ${raw.length})`,
    );
  }
  return raw;
}

/** The key kept in DATA_DIR/secret_key, generated and written (0600) by the first start. */
export function storedSecretKey(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  const generated = randomBytes(48).toString('base64url');
  try {
    // 'wx' fails when another instance created it first: then use theirs.
    fs.writeFileSync(file, generated + '\n', { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new ConfigError(
        'SECRET_KEY',
        `SECRET_KEY is unset and ${file} could not be written: ${(error as Error).message}`,
      );
    }
  }
  const stored = fs.readFileSync(file, 'utf8').trim();
  if (stored.length < SECRET_MIN_LENGTH) {
    throw new ConfigError(
      'SECRET_KEY',
      `SECRET_KEY is unset and ${file} holds fewer than ${SECRET_MIN_LENGTH} characters; delete the file or set SECRET_KEY`,
    );
  }
  return stored;
}

export function ensureDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw new ConfigError(
      'DATA_DIR',
      `DATA_DIR must be a writable folder (got ${quoted(dataDir)}): ${(error as Error).message}`,
    );
  }
  if (!fs.statSync(dataDir).isDirectory()) {
    throw new ConfigError('DATA_DIR', `DATA_DIR must be a folder (got ${quoted(dataDir)})`);
  }
}
