/**
 * loadConfig beyond config.test.ts: every variable's value read, and the exact answer for a bad
 * one (the texts an admin sees at start-up), so the readers can be rearranged safely.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-config-values-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function load(env: Record<string, string | undefined> = {}) {
  return loadConfig({ DATA_DIR: path.join(dir, 'data'), LOG_FORMAT: 'json', ...env });
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

describe('loadConfig reads every variable', () => {
  it('gives the documented defaults for all of them', () => {
    const { secretKey, ...config } = load({ SECRET_KEY: undefined });
    expect(secretKey.length).toBeGreaterThanOrEqual(32);
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.join(dir, 'data'),
      databaseUrl: null,
      baseUrl: 'http://127.0.0.1:8080',
      secureCookies: false,
      globalWorkspace: 'waymark',
      trustProxy: false,
      globalRead: false,
      globalWrite: false,
      globalAdmin: false,
      globalStorage: 1073741824,
      workspaceCreation: false,
      docsUrl: 'https://waymark.dev/docs',
      communityUrl: null,
      smtpUrl: null,
      mailFrom: 'Waymark <no-reply@[127.0.0.1]>',
      adminUsername: 'admin',
      adminEmail: 'admin@example.com',
      adminPassword: null,
      logLevel: 'info',
      logFormat: 'json',
      databasePoolSize: 10,
      s3: null,
      basemap: null,
      versionCacheBytes: 2147483648,
      versionCopyDelayMs: 60_000,
      webhookAllowPrivate: false,
      oidc: null,
      fileWork: { seconds: 20, backgroundSeconds: 900, memoryBytes: 1024 * 1024 * 1024, nice: 10 },
      embedOrigins: null,
      auditRetentionDays: 365,
    });
    expect(Object.isFrozen(config)).toBe(false); // the rest copy; the original is checked below
    expect(Object.isFrozen(load())).toBe(true);
    expect(Object.isFrozen(load().fileWork)).toBe(true);
  });

  it('reads the values an admin sets', () => {
    const config = load({
      COMMUNITY_URL: 'https://chat.example.org/waymark',
      WORKSPACE_CREATION: 'yes',
      LOG_FORMAT: 'PRETTY',
      DATABASE_POOL_SIZE: '25',
      VERSION_CACHE_BYTES: '0',
      VERSION_COPY_DELAY: '5',
      FILE_WORK_SECONDS: '3',
      FILE_WORK_BACKGROUND_SECONDS: '60',
      FILE_WORK_MEMORY_MB: '256',
      FILE_WORK_NICE: '0',
      AUDIT_RETENTION_DAYS: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      EMBED_ORIGINS: 'https://Example.org, https://*.maps.example.org:8443',
      BASEMAP_URL: 'https://{a-c}.tile.example.org/{z}/{x}/{y}.png',
      BASEMAP_ATTRIBUTION: '© Example contributors',
      TRUST_PROXY: '10.0.0.0/8,::1',
    });
    expect(config).toMatchObject({
      communityUrl: 'https://chat.example.org/waymark',
      workspaceCreation: true,
      logFormat: 'pretty',
      databasePoolSize: 25,
      versionCacheBytes: 0,
      versionCopyDelayMs: 5000,
      fileWork: { seconds: 3, backgroundSeconds: 60, memoryBytes: 256 * 1024 * 1024, nice: 0 },
      auditRetentionDays: 0,
      webhookAllowPrivate: true,
      embedOrigins: ['https://example.org', 'https://*.maps.example.org:8443'],
      basemap: {
        url: 'https://{a-c}.tile.example.org/{z}/{x}/{y}.png',
        attribution: '© Example contributors',
      },
      trustProxy: '10.0.0.0/8,::1',
    });
    expect(load({ EMBED_ORIGINS: 'None' }).embedOrigins).toEqual([]);
    expect(load({ GLOBAL_STORAGE: String(Number.MAX_SAFE_INTEGER) }).globalStorage).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it.each([
    [
      'COMMUNITY_URL',
      'chat',
      'COMMUNITY_URL must be an absolute http:// or https:// URL (got "chat")',
    ],
    [
      'WORKSPACE_CREATION',
      'sure',
      'WORKSPACE_CREATION must be one of true/false/1/0/yes/no (got "sure")',
    ],
    ['LOG_FORMAT', 'xml', 'LOG_FORMAT must be one of pretty|json (got "xml")'],
    [
      'DATABASE_POOL_SIZE',
      '0',
      'DATABASE_POOL_SIZE must be an integer between 1 and 1000 (got "0")',
    ],
    [
      'DATABASE_POOL_SIZE',
      '1.5',
      'DATABASE_POOL_SIZE must be an integer between 1 and 1000 (got "1.5")',
    ],
    [
      'GLOBAL_STORAGE',
      '99999999999999999999',
      'GLOBAL_STORAGE must be a whole number of bytes (e.g. 1073741824) (got "99999999999999999999")',
    ],
    [
      'VERSION_CACHE_BYTES',
      '2G',
      'VERSION_CACHE_BYTES must be a whole number of bytes (e.g. 2147483648) (got "2G")',
    ],
    [
      'VERSION_COPY_DELAY',
      '86401',
      'VERSION_COPY_DELAY must be a whole number of seconds between 0 and 86400 (got "86401")',
    ],
    ['FILE_WORK_SECONDS', '0', 'FILE_WORK_SECONDS must be an integer between 1 and 3600 (got "0")'],
    [
      'FILE_WORK_BACKGROUND_SECONDS',
      '86401',
      'FILE_WORK_BACKGROUND_SECONDS must be an integer between 1 and 86400 (got "86401")',
    ],
    [
      'FILE_WORK_MEMORY_MB',
      '32',
      'FILE_WORK_MEMORY_MB must be an integer between 64 and 65536 (got "32")',
    ],
    ['FILE_WORK_NICE', '20', 'FILE_WORK_NICE must be an integer between 0 and 19 (got "20")'],
    [
      'AUDIT_RETENTION_DAYS',
      '-1',
      'AUDIT_RETENTION_DAYS must be an integer between 0 and 36500 (got "-1")',
    ],
    [
      'WEBHOOK_ALLOW_PRIVATE',
      'y',
      'WEBHOOK_ALLOW_PRIVATE must be one of true/false/1/0/yes/no (got "y")',
    ],
    [
      'TRUST_PROXY',
      'proxy.local',
      'TRUST_PROXY must be true/false or addresses/CIDRs, comma-separated (got "proxy.local")',
    ],
    [
      'EMBED_ORIGINS',
      'https://example.org, example.org/path',
      'EMBED_ORIGINS must be none or origins such as https://example.org, comma-separated (got "example.org/path")',
    ],
    [
      'BASEMAP_URL',
      'https://tile.example.org/{z}/{x}.png',
      'BASEMAP_URL must be an http(s) address with {z}, {x} and {y} (got "https://tile.example.org/{z}/{x}.png")',
    ],
    [
      'BASEMAP_URL',
      'ftp://tile.example.org/{z}/{x}/{y}.png',
      'BASEMAP_URL must be an http(s) address with {z}, {x} and {y} (got "ftp://tile.example.org/{z}/{x}/{y}.png")',
    ],
  ])('rejects a bad %s=%s with its text', (name, value, message) => {
    const error = errorOf({ [name]: value });
    expect(error.variable).toBe(name);
    expect(error.message).toBe(message);
  });

  it.each([
    [
      { BASEMAP_ATTRIBUTION: 'OSM' },
      'BASEMAP_URL',
      'BASEMAP_URL must be set when BASEMAP_ATTRIBUTION is',
    ],
    [
      { BASEMAP_URL: 'https://t.example.org/{z}/{x}/{y}.png', BASEMAP_ATTRIBUTION: '<b>OSM</b>' },
      'BASEMAP_ATTRIBUTION',
      'BASEMAP_ATTRIBUTION must be plain text',
    ],
    [{ OIDC_ISSUER: 'issuer' }, 'OIDC_ISSUER', 'OIDC_ISSUER must be an http(s) URL (got "issuer")'],
    [
      { OIDC_ISSUER: 'https://id.example.org' },
      'OIDC_CLIENT_ID',
      'OIDC_CLIENT_ID must be set when OIDC_ISSUER is',
    ],
    [
      { OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_ID: 'waymark', OIDC_ROLE: 'Owner' },
      'OIDC_ROLE',
      'OIDC_ROLE must be guest, reader, writer or admin (got "owner")',
    ],
    [
      {
        OIDC_ISSUER: 'https://id.example.org',
        OIDC_CLIENT_ID: 'waymark',
        OIDC_EMAIL_DOMAINS: 'example',
      },
      'OIDC_EMAIL_DOMAINS',
      'OIDC_EMAIL_DOMAINS has an invalid domain "example"',
    ],
    [
      {
        OIDC_ISSUER: 'https://id.example.org',
        OIDC_CLIENT_ID: 'waymark',
        OIDC_CREATE_USERS: 'maybe',
      },
      'OIDC_CREATE_USERS',
      'OIDC_CREATE_USERS must be one of true/false/1/0/yes/no (got "maybe")',
    ],
  ])('rejects %j naming %s', (env, name, message) => {
    const error = errorOf(env);
    expect(error.variable).toBe(name);
    expect(error.message).toBe(message);
  });

  it.each([
    ['TRUST_PROXY', 'proxy.local'],
    ['GLOBAL_READ', 'maybe'],
    ['WEBHOOK_ALLOW_PRIVATE', 'y'],
    ['OIDC_ISSUER', 'issuer'],
    ['AUDIT_RETENTION_DAYS', '-1'],
  ])('writes nothing to the disk when %s is bad', (name, value) => {
    errorOf({ [name]: value });
    expect(fs.existsSync(path.join(dir, 'data'))).toBe(false);
  });
});
