import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-config-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function load(env: Record<string, string | undefined> = {}) {
  return loadConfig({ DATA_DIR: path.join(dir, 'data'), ...env });
}

function errorOf(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has sensible defaults', () => {
    const config = load();
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.join(dir, 'data'),
      databaseUrl: null,
      baseUrl: 'http://127.0.0.1:8080',
      secureCookies: false,
      globalWorkspace: 'waymark',
      globalRead: false,
      globalWrite: false,
      globalAdmin: false,
      globalStorage: 1073741824,
      docsUrl: 'https://waymark.dev/docs',
      smtpUrl: null,
      adminUsername: 'admin',
      adminEmail: 'admin@example.com',
      adminPassword: null,
      logLevel: 'info',
    });
    expect(fs.statSync(config.dataDir).isDirectory()).toBe(true);
  });

  it('treats empty strings as unset', () => {
    const config = load({ PORT: '', HOST: '', BASE_URL: '', GLOBAL_READ: '', DATABASE_URL: '' });
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeNull();
  });

  it('resolves DATA_DIR to an absolute path', () => {
    const relative = path.relative(process.cwd(), path.join(dir, 'rel'));
    expect(loadConfig({ DATA_DIR: relative }).dataDir).toBe(path.join(dir, 'rel'));
  });

  it('generates SECRET_KEY once, keeps it 0600, and reuses it', () => {
    const first = load();
    const file = path.join(first.dataDir, 'secret_key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(load().secretKey).toBe(first.secretKey);
    expect(load({ SECRET_KEY: 'k'.repeat(40) }).secretKey).toBe('k'.repeat(40));
  });

  it('parses booleans in any case', () => {
    for (const [value, expected] of [
      ['TRUE', true],
      ['yes', true],
      ['1', true],
      ['No', false],
      ['0', false],
      ['false', false],
    ] as const) {
      expect(load({ GLOBAL_ADMIN: value }).globalAdmin, value).toBe(expected);
    }
  });

  it('derives cookie security from an https BASE_URL', () => {
    const config = load({ BASE_URL: 'https://maps.example.org/' });
    expect(config.baseUrl).toBe('https://maps.example.org');
    expect(config.secureCookies).toBe(true);
  });

  it('reads the other variables', () => {
    const config = load({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://u:p@db:5432/waymark',
      GLOBAL_WORKSPACE: 'field-team',
      GLOBAL_STORAGE: '1000',
      SMTP_URL: 'smtps://user:pw@mail.example.org:465',
      ADMIN_USERNAME: 'root.admin',
      ADMIN_EMAIL: 'ops@example.org',
      ADMIN_PASSWORD: 'Sup3r-secret',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config).toMatchObject({
      port: 9000,
      baseUrl: 'http://localhost:9000',
      databaseUrl: 'postgresql://u:p@db:5432/waymark',
      globalWorkspace: 'field-team',
      globalStorage: 1000,
      smtpUrl: 'smtps://user:pw@mail.example.org:465',
      adminUsername: 'root.admin',
      adminEmail: 'ops@example.org',
      adminPassword: 'Sup3r-secret',
      logLevel: 'debug',
    });
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer between 1 and 65535 (got "abc")'],
    ['PORT', '0', 'PORT must be an integer between 1 and 65535 (got "0")'],
    ['PORT', '70000', 'PORT must be an integer between 1 and 65535 (got "70000")'],
    ['HOST', 'bad host', 'HOST must be a host name or IP address (got "bad host")'],
    ['DATABASE_URL', 'mysql://x/y', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [
      'BASE_URL',
      'example.org',
      'BASE_URL must be an absolute http:// or https:// URL (got "example.org")',
    ],
    [
      'BASE_URL',
      'ftp://example.org',
      'BASE_URL must be an absolute http:// or https:// URL (got "ftp://example.org")',
    ],
    ['SECRET_KEY', 'short', 'SECRET_KEY must be at least 32 characters long (got 5)'],
    [
      'GLOBAL_WORKSPACE',
      '../evil',
      'GLOBAL_WORKSPACE may contain only letters, digits, spaces and the characters _ - . (got "../evil")',
    ],
    ['GLOBAL_READ', 'maybe', 'GLOBAL_READ must be one of true/false/1/0/yes/no (got "maybe")'],
    ['GLOBAL_WRITE', '2', 'GLOBAL_WRITE must be one of true/false/1/0/yes/no (got "2")'],
    ['GLOBAL_ADMIN', 'on', 'GLOBAL_ADMIN must be one of true/false/1/0/yes/no (got "on")'],
    [
      'GLOBAL_STORAGE',
      '10GB',
      'GLOBAL_STORAGE must be a whole number of bytes (e.g. 1073741824) (got "10GB")',
    ],
    [
      'GLOBAL_STORAGE',
      '-5',
      'GLOBAL_STORAGE must be a whole number of bytes (e.g. 1073741824) (got "-5")',
    ],
    ['DOCS_URL', 'docs', 'DOCS_URL must be an absolute http:// or https:// URL (got "docs")'],
    ['SMTP_URL', 'http://mail', 'SMTP_URL must be an smtp:// or smtps:// URL'],
    [
      'MAIL_FROM',
      'Waymark',
      'MAIL_FROM must be an email address or "Name <address>" (got "Waymark")',
    ],
    [
      'MAIL_FROM',
      'Waymark <no-reply@example.org',
      'MAIL_FROM must be an email address or "Name <address>" (got "Waymark <no-reply@example.org")',
    ],
    [
      'MAIL_FROM',
      'A <a@example.org>\nBcc: x@example.org',
      'MAIL_FROM must be an email address or "Name <address>" (got "A <a@example.org>\\nBcc: x@example.org")',
    ],
    ['ADMIN_USERNAME', 'ab', 'ADMIN_USERNAME must be 4 to 50 characters long (got "ab")'],
    [
      'ADMIN_USERNAME',
      '.admin',
      'ADMIN_USERNAME must not start with a space or a dot (got ".admin")',
    ],
    [
      'ADMIN_EMAIL',
      'not-an-email',
      'ADMIN_EMAIL must be a valid email address (got "not-an-email")',
    ],
    [
      'ADMIN_PASSWORD',
      'short',
      'ADMIN_PASSWORD is rejected: Passwords must be at least 8 characters long.',
    ],
    ['ADMIN_PASSWORD', 'alllowercase', 'ADMIN_PASSWORD is rejected: Password is not strong enough'],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL must be one of fatal|error|warn|info|debug|trace|silent (got "loud")',
    ],
  ])('rejects a bad %s=%s naming the variable', (name, value, message) => {
    const error = errorOf({ [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message).toBe(message);
  });

  it('defaults MAIL_FROM to no-reply at the host of BASE_URL', () => {
    expect(load().mailFrom).toBe('Waymark <no-reply@[127.0.0.1]>');
    expect(load({ BASE_URL: 'https://maps.example.org:8443/app' }).mailFrom).toBe(
      'Waymark <no-reply@maps.example.org>',
    );
    expect(load({ HOST: '::1' }).mailFrom).toBe('Waymark <no-reply@[::1]>');
  });

  it.each([
    'maps@example.org',
    'Field Maps <maps@example.org>',
    '"Maps, Field" <maps@example.org>',
    '<maps@example.org>',
  ])('accepts MAIL_FROM=%s', (value) => {
    expect(load({ MAIL_FROM: value }).mailFrom).toBe(value);
  });

  it('never echoes secrets in errors', () => {
    expect(errorOf({ DATABASE_URL: 'mysql://user:hunter2@x/y' }).message).not.toContain('hunter2');
    expect(errorOf({ ADMIN_PASSWORD: 'weakpass' }).message).not.toContain('weakpass');
    expect(errorOf({ SECRET_KEY: 'tiny-secret' }).message).not.toContain('tiny-secret');
  });

  it('rejects a DATA_DIR that is a file', () => {
    const file = path.join(dir, 'file');
    fs.writeFileSync(file, '');
    const error = errorOf({ DATA_DIR: file });
    expect(error.variable).toBe('DATA_DIR');
    expect(error.message).toMatch(/^DATA_DIR must be a writable folder/);
  });
});
