/** The server's configuration as the rest of the server reads it (loadConfig in index.ts). */
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
  /** The nice value such processes run at (0-19): higher yields the CPU to requests. */
  readonly nice: number;
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
