/**
 * Server configuration: read from environment variables once at start-up, validated, and
 * frozen. A bad value stops the process with a message naming the variable (ConfigError).
 *
 * Side effects (on purpose, so a fresh install needs no setup): DATA_DIR is created when
 * missing, and without SECRET_KEY a random key is generated once and kept in
 * DATA_DIR/secret_key (mode 0600), so sessions and CSRF tokens survive restarts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { validatePassword } from './auth/passwords';
import { isValidEmail, usernameError, workspaceNameError } from './lib/validation';

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface OidcConfig {
  /** The provider's issuer URL (its discovery document is ISSUER/.well-known/openid-configuration). */
  readonly issuer: string;
  readonly clientId: string;
  /** Null: a public client (PKCE only). */
  readonly clientSecret: string | null;
  /** The sign-in screen's button. */
  readonly buttonLabel: string;
  /** The ID token / userinfo claim that becomes a new user's username. */
  readonly usernameClaim: string;
  /** Email domains allowed to sign in this way (lower case); empty: any. */
  readonly emailDomains: readonly string[];
  /** Unknown users are created (in `workspace` with `role`); otherwise refused. */
  readonly createUsers: boolean;
  /** The workspace a created user joins (default GLOBAL_WORKSPACE). */
  readonly workspace: string;
  readonly role: 'guest' | 'reader' | 'writer' | 'admin';
}

export interface Config {
  /** TCP port the HTTP server listens on. */
  readonly port: number;
  readonly host: string;
  /** Absolute path; holds the embedded database, blobs, secrets, MAINTENANCE flag, admin socket. */
  readonly dataDir: string;
  /** postgres:// URL, or null for the embedded PGlite database in DATA_DIR/pglite. */
  readonly databaseUrl: string | null;
  /** Public address of the app, without trailing slash. */
  readonly baseUrl: string;
  /** True when BASE_URL is https: cookies get Secure and the `__Host-` prefix. */
  readonly secureCookies: boolean;
  readonly secretKey: string;
  readonly globalWorkspace: string;
  readonly globalRead: boolean;
  readonly globalWrite: boolean;
  readonly globalAdmin: boolean;
  /** Storage allowance of the global workspace (and of workspaces users create), in bytes. */
  readonly globalStorage: number;
  /** Signed-in users may create workspaces of their own (WORKSPACE_CREATION). */
  readonly workspaceCreation: boolean;
  readonly docsUrl: string;
  /** Community chat address for the help menu (GET /config `community_url`); null: none. */
  readonly communityUrl: string | null;
  readonly smtpUrl: string | null;
  /** Sender of outgoing mail: an address or `Name <address>`. */
  readonly mailFrom: string;
  readonly adminUsername: string;
  readonly adminEmail: string;
  readonly adminPassword: string | null;
  readonly logLevel: LogLevel;
  /** `json` lines, or `pretty` one-line entries for a person at a terminal (logging.ts). */
  readonly logFormat: LogFormat;
  /** Most PostgreSQL connections this instance opens (node-postgres pool size). */
  readonly databasePoolSize: number;
  /** S3-compatible blob store, or null for the local folder DATA_DIR/blobs. */
  readonly s3: S3Config | null;
  /**
   * Which reverse proxies' X-Forwarded-For to believe for the client address (Fastify's
   * trustProxy): false (none), true (every proxy) or a comma list of addresses/CIDRs. The
   * per-address request limits count by this address.
   */
  readonly trustProxy: boolean | string;
  /** The map's basemap (BASEMAP_URL, BASEMAP_ATTRIBUTION); null: none (no outside requests). */
  readonly basemap: { readonly url: string; readonly attribution: string } | null;
  /**
   * Most bytes of rebuilt file versions kept on this instance's disk (VERSION_CACHE_BYTES;
   * services/file-store/cache.ts).
   */
  readonly versionCacheBytes: number;
  /** Days audit entries are kept (AUDIT_RETENTION_DAYS); 0 keeps them forever. */
  readonly auditRetentionDays: number;
  /**
   * How long the latest version of a file made from a diff may wait before it is also
   * written whole into the blob store (VERSION_COPY_DELAY, in ms; services/file-store/).
   */
  readonly versionCopyDelayMs: number;
  /**
   * Webhooks may be sent to loopback, private and link-local addresses
   * (WEBHOOK_ALLOW_PRIVATE; services/webhooks/address-guard.ts): off, they are refused.
   */
  readonly webhookAllowPrivate: boolean;
  /** OpenID Connect sign-in (OIDC_*; services/oidc/); null when OIDC_ISSUER is unset. */
  readonly oidc: OidcConfig | null;
  /** What work on a user's file may spend (lib/sandbox/budget.ts). */
  readonly fileWork: FileWorkConfig;
  /**
   * Who may show the embed page of a public project's map in a frame (EMBED_ORIGINS): null
   * any site; otherwise these origins only (empty: no site).
   */
  readonly embedOrigins: readonly string[] | null;
}

export interface FileWorkConfig {
  /** Most seconds of interactive work (the map, the attribute table, compare). */
  readonly seconds: number;
  /** Most seconds of background work (applying a diff, computing a changeset). */
  readonly backgroundSeconds: number;
  /** Most resident memory of a process doing such work, in bytes. */
  readonly memoryBytes: number;
}

export interface S3Config {
  readonly bucket: string;
  /** http(s) address of an S3-compatible service; null for AWS's own endpoint. */
  readonly endpoint: string | null;
  readonly region: string;
  /** Null: the AWS SDK's default credential chain (environment, profile, instance role). */
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  /** Bucket in the path (http://host/bucket/key) instead of the host name. */
  readonly forcePathStyle: boolean;
  /** Prepended to every object key (e.g. `waymark/`), so one bucket can hold several installs. */
  readonly prefix: string;
}

/** Defaults, documented for the README (value shown as text). */
export const CONFIG_DEFAULTS = {
  PORT: '8080',
  HOST: '127.0.0.1',
  DATA_DIR: './data',
  DATABASE_URL: '(unset: embedded PGlite database in DATA_DIR/pglite)',
  BASE_URL: 'http://HOST:PORT (localhost when HOST is 0.0.0.0 or ::)',
  SECRET_KEY: '(unset: generated once and kept in DATA_DIR/secret_key)',
  GLOBAL_WORKSPACE: 'waymark',
  GLOBAL_READ: 'false',
  GLOBAL_WRITE: 'false',
  GLOBAL_ADMIN: 'false',
  GLOBAL_STORAGE: '1073741824',
  WORKSPACE_CREATION: 'false',
  DOCS_URL: 'https://waymark.dev/docs',
  COMMUNITY_URL: "(unset: the help menu's Community chat is disabled)",
  SMTP_URL: '(unset: emails are written to the outbox folder)',
  MAIL_FROM: 'Waymark <no-reply@HOST-of-BASE_URL>',
  ADMIN_USERNAME: 'admin',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: '(unset: generated on first start and printed once)',
  LOG_LEVEL: 'info',
  LOG_FORMAT: 'pretty on a terminal, json otherwise',
  DATABASE_POOL_SIZE: '10',
  S3_BUCKET: '(unset: files are kept in DATA_DIR/blobs)',
  S3_ENDPOINT: '(unset: AWS S3 of S3_REGION)',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: "(unset: the AWS SDK's default credential chain)",
  S3_SECRET_ACCESS_KEY: '(unset: with S3_ACCESS_KEY_ID unset)',
  S3_FORCE_PATH_STYLE: 'false',
  S3_PREFIX: '(empty)',
  TRUST_PROXY: 'false',
  BASEMAP_URL: '(unset: the map has no basemap)',
  BASEMAP_ATTRIBUTION: '(empty)',
  VERSION_CACHE_BYTES: '2147483648',
  VERSION_COPY_DELAY: '60',
  FILE_WORK_SECONDS: '20',
  FILE_WORK_BACKGROUND_SECONDS: '900',
  FILE_WORK_MEMORY_MB: '1024',
  EMBED_ORIGINS: '(unset: any site may embed a public map)',
  AUDIT_RETENTION_DAYS: '365',
  WEBHOOK_ALLOW_PRIVATE: 'false',
  OIDC_ISSUER: '(unset: no OpenID Connect sign-in)',
  OIDC_CLIENT_ID: '(required with OIDC_ISSUER)',
  OIDC_CLIENT_SECRET: '(unset: a public client, PKCE only)',
  OIDC_BUTTON_LABEL: 'Sign in with single sign-on',
  OIDC_USERNAME_CLAIM: 'preferred_username',
  OIDC_EMAIL_DOMAINS: '(unset: any domain)',
  OIDC_CREATE_USERS: 'false',
  OIDC_WORKSPACE: 'GLOBAL_WORKSPACE',
  OIDC_ROLE: 'reader',
} as const satisfies Record<string, string>;

export type ConfigVariable = keyof typeof CONFIG_DEFAULTS;

/** One line of description per variable, for the README and `admin help`. */
export const CONFIG_DESCRIPTIONS: Record<ConfigVariable, string> = {
  PORT: 'TCP port to listen on (1-65535)',
  HOST: 'interface to listen on',
  DATA_DIR: 'folder for the embedded database, files, secrets and the maintenance flag',
  DATABASE_URL: 'postgres:// or postgresql:// URL of a PostgreSQL database',
  BASE_URL: 'public http(s) address of the app; https turns on Secure __Host- cookies',
  SECRET_KEY: 'secret for signing cookies and tokens (at least 32 characters)',
  GLOBAL_WORKSPACE: 'name of the workspace every user belongs to',
  GLOBAL_READ: 'every user may read all projects of the global workspace',
  GLOBAL_WRITE: 'every user may write to all projects of the global workspace',
  GLOBAL_ADMIN: 'every user administers the global workspace',
  GLOBAL_STORAGE: 'storage allowance of the global workspace in bytes',
  WORKSPACE_CREATION: 'signed-in users may create workspaces of their own (they own them)',
  DOCS_URL: 'address of the documentation (help menu)',
  COMMUNITY_URL: 'address of the community chat (help menu)',
  SMTP_URL: 'smtp:// or smtps:// URL of the mail server',
  MAIL_FROM: 'sender of outgoing mail: an address or "Name <address>"',
  ADMIN_USERNAME: 'username of the superuser created on first start',
  ADMIN_EMAIL: 'email of the superuser created on first start',
  ADMIN_PASSWORD: 'password of the superuser created on first start',
  LOG_LEVEL: `log level: ${LOG_LEVELS.join('|')}`,
  LOG_FORMAT:
    'pretty: short one-line entries (requests shown at debug); json: one JSON object a line',
  DATABASE_POOL_SIZE: 'most PostgreSQL connections per instance (1-1000)',
  S3_BUCKET: 'bucket of an S3-compatible store for files and upload staging (3-63 characters)',
  S3_ENDPOINT: 'http(s) address of an S3-compatible service (MinIO, Ceph, Garage, ...)',
  S3_REGION: 'region of the bucket',
  S3_ACCESS_KEY_ID: 'access key (set together with S3_SECRET_ACCESS_KEY)',
  S3_SECRET_ACCESS_KEY: 'secret key (set together with S3_ACCESS_KEY_ID)',
  S3_FORCE_PATH_STYLE:
    'address the bucket in the path instead of the host name (most self-hosted services)',
  S3_PREFIX: 'prefix of every object key, e.g. waymark/',
  TRUST_PROXY:
    'reverse proxies whose X-Forwarded-For gives the client address: false, true (any), or their addresses/CIDRs (comma-separated)',
  BASEMAP_URL:
    "XYZ tile address of the map's basemap, with {z}, {x} and {y} (and optionally {a-c}), e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  BASEMAP_ATTRIBUTION: 'attribution shown on the map for the basemap (HTML not allowed)',
  VERSION_CACHE_BYTES:
    'most bytes of older file versions rebuilt from their diffs kept on this instance (DATA_DIR/cache/files)',
  VERSION_COPY_DELAY:
    'seconds the latest version of a GeoPackage pushed as a diff waits before it is also stored whole',
  FILE_WORK_SECONDS:
    "most seconds one read of a user's file may take for a person waiting (map layers, tiles, attribute table, compare); past it the request answers 422 (1-3600)",
  FILE_WORK_BACKGROUND_SECONDS:
    "most seconds one piece of background work on a user's file may take (applying a pushed diff, computing a changeset) (1-86400)",
  FILE_WORK_MEMORY_MB: "most memory, in MiB, of a process working on a user's file (64-65536)",
  AUDIT_RETENTION_DAYS:
    'days audit log entries are kept before the server deletes them; 0 keeps them forever (0-36500)',
  EMBED_ORIGINS:
    "the sites that may show a public project's embedded map in a frame: comma-separated origins (https://example.org, https://*.example.org), or none",
  WEBHOOK_ALLOW_PRIVATE:
    'webhooks may be sent to loopback, private and link-local addresses (a self-hosted network)',
  OIDC_ISSUER:
    "issuer URL of an OpenID Connect provider; its button shows on the sign-in screen (http only for a provider on this machine's loopback)",
  OIDC_CLIENT_ID:
    'client id registered at the provider (redirect URI BASE_URL/app/auth/oidc/callback)',
  OIDC_CLIENT_SECRET: 'client secret (unset: a public client, PKCE only)',
  OIDC_BUTTON_LABEL: "the provider button's label on the sign-in screen",
  OIDC_USERNAME_CLAIM: "the claim that becomes a new user's username",
  OIDC_EMAIL_DOMAINS:
    'email domains allowed to sign in with the provider, comma-separated (unset: any)',
  OIDC_CREATE_USERS:
    'unknown users signing in with the provider are created (true) or refused (false)',
  OIDC_WORKSPACE: 'the workspace a created user joins',
  OIDC_ROLE: 'the workspace role a created user gets: guest, reader, writer or admin',
};

type Env = Record<string, string | undefined>;

const SECRET_FILE = 'secret_key';
const SECRET_MIN_LENGTH = 32;

function quoted(value: string): string {
  return JSON.stringify(value);
}

/** Reads a variable; empty or whitespace-only counts as unset. */
function read(env: Env, name: ConfigVariable): string | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  return value.trim();
}

/**
 * Runs a zod schema on one variable and turns a failure into a ConfigError whose message
 * names the variable. `secret` variables never echo their value.
 */
function parseVar<T>(
  name: ConfigVariable,
  raw: string,
  schema: z.ZodType<T>,
  requirement: string,
  secret = false,
): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const got = secret ? '' : ` (got ${quoted(raw)})`;
  throw new ConfigError(name, `${name} ${requirement}${got}`);
}

const booleanSchema = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
  .transform((s) => s === 'true' || s === '1' || s === 'yes');

const portSchema = z
  .string()
  .regex(/^\d+$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(65535));

const byteSchema = z
  .string()
  .regex(/^\d+$/)
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

function urlSchema(protocols: readonly string[]) {
  return z.string().refine((s) => {
    try {
      const url = new URL(s);
      return protocols.includes(url.protocol) && url.hostname !== '';
    } catch {
      return false;
    }
  });
}

/** `Waymark <no-reply@host>` with the host of BASE_URL (an IP address in brackets). */
export function defaultMailFrom(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const domain = isIP(host) === 4 ? `[${host}]` : host;
  return `Waymark <no-reply@${domain}>`;
}

/** `address` or `Display Name <address>` (optionally quoted name), on one line. */
function isValidMailFrom(value: string): boolean {
  const named = /^(?:"([^"\r\n]*)"|([^"<>\r\n]*?))\s*<([^<>\s]+)>$/.exec(value);
  if (named) return isValidEmail(named[3]!);
  return isValidEmail(value);
}

function readBoolean(env: Env, name: ConfigVariable, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  return parseVar(name, raw, booleanSchema, 'must be one of true/false/1/0/yes/no');
}

/** An IP address or CIDR range (`10.0.0.0/8`, `::1`). */
function isAddressOrRange(text: string): boolean {
  const [address, bits, ...rest] = text.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

function readTrustProxy(env: Env): boolean | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|no|0)$/i.test(raw)) return false;
  if (/^(true|yes)$/i.test(raw)) return true;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.every(isAddressOrRange)) return parts.join(',');
  throw new ConfigError(
    'TRUST_PROXY',
    `TRUST_PROXY must be true/false or addresses/CIDRs, comma-separated (got ${quoted(raw)})`,
  );
}

/** A whole number of a variable within [min, max], or its default. */
function readInteger(
  env: Env,
  name: ConfigVariable,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  return parseVar(
    name,
    raw,
    z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max)),
    `must be an integer between ${min} and ${max}`,
  );
}

/** FILE_WORK_SECONDS, FILE_WORK_BACKGROUND_SECONDS, FILE_WORK_MEMORY_MB. */
function readFileWork(env: Env): FileWorkConfig {
  return Object.freeze({
    seconds: readInteger(env, 'FILE_WORK_SECONDS', 20, 1, 3600),
    backgroundSeconds: readInteger(env, 'FILE_WORK_BACKGROUND_SECONDS', 900, 1, 86_400),
    memoryBytes: readInteger(env, 'FILE_WORK_MEMORY_MB', 1024, 64, 65_536) * 1024 * 1024,
  });
}

/** An origin EMBED_ORIGINS accepts: scheme, host (a `*.` wildcard first), optional port. */
const EMBED_ORIGIN =
  /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/** EMBED_ORIGINS: null (unset: any site), [] (`none`), or the origins. */
function readEmbedOrigins(env: Env): readonly string[] | null {
  const raw = read(env, 'EMBED_ORIGINS');
  if (raw === undefined) return null;
  if (raw.toLowerCase() === 'none') return Object.freeze([]);
  const origins = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const wrong = origins.find((origin) => !EMBED_ORIGIN.test(origin));
  if (wrong !== undefined || origins.length === 0) {
    throw new ConfigError(
      'EMBED_ORIGINS',
      `EMBED_ORIGINS must be none or origins such as https://example.org, comma-separated (got ${quoted(wrong ?? raw)})`,
    );
  }
  return Object.freeze(origins.map((origin) => origin.toLowerCase()));
}

/** BASEMAP_URL and BASEMAP_ATTRIBUTION. */
function readBasemap(env: Env): Config['basemap'] {
  const url = read(env, 'BASEMAP_URL');
  const attribution = read(env, 'BASEMAP_ATTRIBUTION') ?? '';
  if (url === undefined) {
    if (attribution !== '') {
      throw new ConfigError('BASEMAP_URL', 'BASEMAP_URL must be set when BASEMAP_ATTRIBUTION is');
    }
    return null;
  }
  const template = url.replace(/\{([xyz]|[a-z]-[a-z])\}/g, '0');
  const valid =
    ['{z}', '{x}', '{y}'].every((part) => url.includes(part)) &&
    urlSchema(['http:', 'https:']).safeParse(template).success;
  if (!valid) {
    throw new ConfigError(
      'BASEMAP_URL',
      `BASEMAP_URL must be an http(s) address with {z}, {x} and {y} (got ${quoted(url)})`,
    );
  }
  if (/[<>]/.test(attribution)) {
    throw new ConfigError('BASEMAP_ATTRIBUTION', 'BASEMAP_ATTRIBUTION must be plain text');
  }
  return { url, attribution };
}

const OIDC_ROLES = ['guest', 'reader', 'writer', 'admin'] as const;

function readOidc(env: Env, globalWorkspace: string): OidcConfig | null {
  const issuer = read(env, 'OIDC_ISSUER');
  if (issuer === undefined) return null;
  if (!urlSchema(['http:', 'https:']).safeParse(issuer).success) {
    throw new ConfigError(
      'OIDC_ISSUER',
      `OIDC_ISSUER must be an http(s) URL (got ${quoted(issuer)})`,
    );
  }
  const clientId = read(env, 'OIDC_CLIENT_ID');
  if (clientId === undefined) {
    throw new ConfigError('OIDC_CLIENT_ID', 'OIDC_CLIENT_ID must be set when OIDC_ISSUER is');
  }
  const role = (read(env, 'OIDC_ROLE') ?? 'reader').toLowerCase();
  if (!(OIDC_ROLES as readonly string[]).includes(role)) {
    throw new ConfigError(
      'OIDC_ROLE',
      `OIDC_ROLE must be guest, reader, writer or admin (got ${quoted(role)})`,
    );
  }
  const domains = (read(env, 'OIDC_EMAIL_DOMAINS') ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter((d) => d !== '');
  const wrong = domains.find((d) => !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(d));
  if (wrong) {
    throw new ConfigError(
      'OIDC_EMAIL_DOMAINS',
      `OIDC_EMAIL_DOMAINS has an invalid domain ${quoted(wrong)}`,
    );
  }
  return {
    issuer,
    clientId,
    clientSecret: read(env, 'OIDC_CLIENT_SECRET') ?? null,
    buttonLabel: read(env, 'OIDC_BUTTON_LABEL') ?? 'Sign in with single sign-on',
    usernameClaim: read(env, 'OIDC_USERNAME_CLAIM') ?? 'preferred_username',
    emailDomains: domains,
    createUsers: readBoolean(env, 'OIDC_CREATE_USERS', false),
    workspace: read(env, 'OIDC_WORKSPACE') ?? globalWorkspace,
    role: role as OidcConfig['role'],
  };
}

function loadSecretKey(env: Env, dataDir: string): string {
  const raw = env.SECRET_KEY;
  if (raw !== undefined && raw !== '') {
    if (raw.length < SECRET_MIN_LENGTH) {
      throw new ConfigError(
        'SECRET_KEY',
        `SECRET_KEY must be at least ${SECRET_MIN_LENGTH} characters long (got ${raw.length})`,
      );
    }
    return raw;
  }
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

function ensureDataDir(dataDir: string): void {
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

/**
 * Validates the environment and returns the frozen configuration.
 * Throws ConfigError (message names the variable) on the first bad value.
 */
export function loadConfig(env: Env = process.env): Config {
  const portRaw = read(env, 'PORT');
  const port =
    portRaw === undefined
      ? 8080
      : parseVar('PORT', portRaw, portSchema, 'must be an integer between 1 and 65535');

  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (/[\s/]/.test(host)) {
    throw new ConfigError('HOST', `HOST must be a host name or IP address (got ${quoted(host)})`);
  }

  const databaseRaw = read(env, 'DATABASE_URL');
  const databaseUrl =
    databaseRaw === undefined
      ? null
      : parseVar(
          'DATABASE_URL',
          databaseRaw,
          urlSchema(['postgres:', 'postgresql:']),
          'must be a postgres:// or postgresql:// URL',
          true,
        );

  const baseRaw = read(env, 'BASE_URL');
  let baseUrl: string;
  if (baseRaw === undefined) {
    const shownHost =
      host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    baseUrl = `http://${shownHost}:${port}`;
  } else {
    baseUrl = parseVar(
      'BASE_URL',
      baseRaw,
      urlSchema(['http:', 'https:']),
      'must be an absolute http:// or https:// URL',
    ).replace(/\/+$/, '');
  }
  const secureCookies = baseUrl.startsWith('https:');

  const dataDir = path.resolve(read(env, 'DATA_DIR') ?? './data');

  const globalWorkspace = read(env, 'GLOBAL_WORKSPACE') ?? 'waymark';
  const workspaceProblem = workspaceNameError(globalWorkspace);
  if (workspaceProblem) {
    throw new ConfigError(
      'GLOBAL_WORKSPACE',
      `GLOBAL_WORKSPACE ${workspaceProblem} (got ${quoted(globalWorkspace)})`,
    );
  }

  const storageRaw = read(env, 'GLOBAL_STORAGE');
  const globalStorage =
    storageRaw === undefined
      ? 1073741824
      : parseVar(
          'GLOBAL_STORAGE',
          storageRaw,
          byteSchema,
          'must be a whole number of bytes (e.g. 1073741824)',
        );

  const docsRaw = read(env, 'DOCS_URL');
  const docsUrl =
    docsRaw === undefined
      ? 'https://waymark.dev/docs'
      : parseVar(
          'DOCS_URL',
          docsRaw,
          urlSchema(['http:', 'https:']),
          'must be an absolute http:// or https:// URL',
        );

  const communityRaw = read(env, 'COMMUNITY_URL');
  const communityUrl =
    communityRaw === undefined
      ? null
      : parseVar(
          'COMMUNITY_URL',
          communityRaw,
          urlSchema(['http:', 'https:']),
          'must be an absolute http:// or https:// URL',
        );

  const smtpRaw = read(env, 'SMTP_URL');
  const smtpUrl =
    smtpRaw === undefined
      ? null
      : parseVar(
          'SMTP_URL',
          smtpRaw,
          urlSchema(['smtp:', 'smtps:']),
          'must be an smtp:// or smtps:// URL',
          true,
        );

  const mailFromRaw = read(env, 'MAIL_FROM');
  const mailFrom = mailFromRaw === undefined ? defaultMailFrom(baseUrl) : mailFromRaw;
  if (mailFromRaw !== undefined && !isValidMailFrom(mailFromRaw)) {
    throw new ConfigError(
      'MAIL_FROM',
      `MAIL_FROM must be an email address or "Name <address>" (got ${quoted(mailFromRaw)})`,
    );
  }

  const adminUsername = read(env, 'ADMIN_USERNAME') ?? 'admin';
  const usernameProblem = usernameError(adminUsername);
  if (usernameProblem) {
    throw new ConfigError(
      'ADMIN_USERNAME',
      `ADMIN_USERNAME ${usernameProblem} (got ${quoted(adminUsername)})`,
    );
  }

  const adminEmail = read(env, 'ADMIN_EMAIL') ?? 'admin@example.com';
  if (!isValidEmail(adminEmail)) {
    throw new ConfigError(
      'ADMIN_EMAIL',
      `ADMIN_EMAIL must be a valid email address (got ${quoted(adminEmail)})`,
    );
  }

  // Passwords may legitimately have surrounding spaces: only the empty string means unset.
  const adminPasswordRaw = env.ADMIN_PASSWORD;
  const adminPassword =
    adminPasswordRaw === undefined || adminPasswordRaw === '' ? null : adminPasswordRaw;
  if (adminPassword !== null) {
    const problem = validatePassword(adminPassword);
    if (problem) throw new ConfigError('ADMIN_PASSWORD', `ADMIN_PASSWORD is rejected: ${problem}`);
  }

  const logRaw = read(env, 'LOG_LEVEL');
  const logLevel =
    logRaw === undefined
      ? 'info'
      : parseVar(
          'LOG_LEVEL',
          logRaw.toLowerCase(),
          z.enum(LOG_LEVELS),
          `must be one of ${LOG_LEVELS.join('|')}`,
        );

  const formatRaw = read(env, 'LOG_FORMAT');
  const logFormat: LogFormat =
    formatRaw === undefined
      ? process.stdout.isTTY
        ? 'pretty'
        : 'json'
      : parseVar(
          'LOG_FORMAT',
          formatRaw.toLowerCase(),
          z.enum(LOG_FORMATS),
          `must be one of ${LOG_FORMATS.join('|')}`,
        );

  const databasePoolSize = readInteger(env, 'DATABASE_POOL_SIZE', 10, 1, 1000);

  const s3 = readS3(env);
  const basemap = readBasemap(env);
  const fileWork = readFileWork(env);
  const embedOrigins = readEmbedOrigins(env);

  const cacheRaw = read(env, 'VERSION_CACHE_BYTES');
  const versionCacheBytes =
    cacheRaw === undefined
      ? 2 * 1024 ** 3
      : parseVar(
          'VERSION_CACHE_BYTES',
          cacheRaw,
          byteSchema,
          'must be a whole number of bytes (e.g. 2147483648)',
        );
  const delayRaw = read(env, 'VERSION_COPY_DELAY');
  const versionCopyDelayMs =
    delayRaw === undefined
      ? 60_000
      : parseVar(
          'VERSION_COPY_DELAY',
          delayRaw,
          z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(0).max(86_400)),
          'must be a whole number of seconds between 0 and 86400',
        ) * 1000;

  // Side effects last, once every pure check has passed.
  ensureDataDir(dataDir);
  const secretKey = loadSecretKey(env, dataDir);

  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    baseUrl,
    secureCookies,
    secretKey,
    globalWorkspace,
    trustProxy: readTrustProxy(env),
    globalRead: readBoolean(env, 'GLOBAL_READ', false),
    globalWrite: readBoolean(env, 'GLOBAL_WRITE', false),
    globalAdmin: readBoolean(env, 'GLOBAL_ADMIN', false),
    globalStorage,
    workspaceCreation: readBoolean(env, 'WORKSPACE_CREATION', false),
    docsUrl,
    communityUrl,
    smtpUrl,
    mailFrom,
    adminUsername,
    adminEmail,
    adminPassword,
    logLevel,
    logFormat,
    databasePoolSize,
    s3,
    basemap,
    versionCacheBytes,
    versionCopyDelayMs,
    webhookAllowPrivate: readBoolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    oidc: readOidc(env, globalWorkspace),
    fileWork,
    embedOrigins,
    auditRetentionDays: readInteger(env, 'AUDIT_RETENTION_DAYS', 365, 0, 36_500),
  });
}

/** S3 bucket names: 3-63 lower-case letters, digits, dots and hyphens, starting and ending alike. */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function readS3(env: Env): S3Config | null {
  const bucket = read(env, 'S3_BUCKET');
  const others = [
    'S3_ENDPOINT',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
    'S3_PREFIX',
  ] as const;
  if (bucket === undefined) {
    const stray = others.find((name) => read(env, name) !== undefined);
    if (stray) throw new ConfigError('S3_BUCKET', `S3_BUCKET must be set when ${stray} is`);
    return null;
  }
  if (!BUCKET_RE.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(
      'S3_BUCKET',
      `S3_BUCKET must be 3-63 lower-case letters, digits, dots or hyphens (got ${quoted(bucket)})`,
    );
  }
  const endpointRaw = read(env, 'S3_ENDPOINT');
  const endpoint =
    endpointRaw === undefined
      ? null
      : parseVar(
          'S3_ENDPOINT',
          endpointRaw,
          urlSchema(['http:', 'https:']),
          'must be an absolute http:// or https:// URL',
        ).replace(/\/+$/, '');
  const region = read(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) {
    throw new ConfigError(
      'S3_REGION',
      `S3_REGION must be a region name like eu-west-1 (got ${quoted(region)})`,
    );
  }
  const accessKeyId = read(env, 'S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY ? env.S3_SECRET_ACCESS_KEY : null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(
      accessKeyId === null ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY',
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  const prefix = read(env, 'S3_PREFIX') ?? '';
  if (prefix !== '' && !/^[A-Za-z0-9._\-/]{1,200}$/.test(prefix)) {
    throw new ConfigError(
      'S3_PREFIX',
      `S3_PREFIX may hold only letters, digits, '.', '_', '-' and '/' (got ${quoted(prefix)})`,
    );
  }
  return {
    bucket,
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: readBoolean(env, 'S3_FORCE_PATH_STYLE', false),
    prefix,
  };
}
