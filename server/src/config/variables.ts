/** The environment variables the server reads: their defaults and descriptions (README, `admin help`). */
import { LOG_LEVELS } from './types';

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
  FILE_WORK_NICE: '10',
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
  FILE_WORK_NICE:
    "CPU priority (nice, 0-19) of the processes working on users' files; higher leaves the CPU to requests first",
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
