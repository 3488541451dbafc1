/**
 * Server configuration: read from environment variables once at start-up, validated, and
 * frozen. A bad value stops the process with a message naming the variable (ConfigError).
 * Every value is checked before anything is written: then DATA_DIR is created and, without
 * SECRET_KEY, a key generated and kept there (data-dir.ts).
 *
 * One file per group of variables: network.ts (PORT, HOST, BASE_URL, TRUST_PROXY,
 * EMBED_ORIGINS), accounts.ts (GLOBAL_*, WORKSPACE_CREATION, ADMIN_*), mail.ts, s3.ts,
 * oidc.ts, basemap.ts, files.ts (FILE_WORK_*, VERSION_*); read.ts reads one variable (TypeBox
 * checks), variables.ts documents them all, types.ts is the Config the server reads.
 */
import path from 'node:path';
import { readAdmin, readWorkspaces } from './accounts';
import { readBasemap } from './basemap';
import { ensureDataDir, readSecretKey, storedSecretKey } from './data-dir';
import { readFileWork, readVersionStore } from './files';
import { readMail } from './mail';
import { readEmbedOrigins, readListen, readTrustProxy } from './network';
import { readOidc } from './oidc';
import { read, readBoolean, readChoice, readHttpUrl, readInteger, readUrl, type Env } from './read';
import { readS3 } from './s3';
import { LOG_FORMATS, LOG_LEVELS, type Config } from './types';

export { ConfigError } from './read';
export { defaultMailFrom } from './mail';
export * from './types';
export * from './variables';

/**
 * Validates the environment and returns the frozen configuration.
 * Throws ConfigError (message names the variable) on the first bad value.
 */
export function loadConfig(env: Env = process.env): Config {
  const listen = readListen(env);
  const databaseUrl = readUrl(
    env,
    'DATABASE_URL',
    ['postgres:', 'postgresql:'],
    'must be a postgres:// or postgresql:// URL',
    true,
  );
  const dataDir = path.resolve(read(env, 'DATA_DIR') ?? './data');
  const workspaces = readWorkspaces(env);
  const given = {
    ...listen,
    dataDir,
    databaseUrl,
    databasePoolSize: readInteger(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    ...workspaces,
    docsUrl: readHttpUrl(env, 'DOCS_URL') ?? 'https://waymark.dev/docs',
    communityUrl: readHttpUrl(env, 'COMMUNITY_URL'),
    ...readMail(env, listen.baseUrl),
    ...readAdmin(env),
    logLevel: readChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: readChoice(env, 'LOG_FORMAT', LOG_FORMATS, process.stdout.isTTY ? 'pretty' : 'json'),
    s3: readS3(env),
    basemap: readBasemap(env),
    fileWork: readFileWork(env),
    embedOrigins: readEmbedOrigins(env),
    ...readVersionStore(env),
    trustProxy: readTrustProxy(env),
    webhookAllowPrivate: readBoolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    oidc: readOidc(env, workspaces.globalWorkspace),
    auditRetentionDays: readInteger(env, 'AUDIT_RETENTION_DAYS', 365, 0, 36_500),
  };
  const secretKey = readSecretKey(env);

  // Side effects last, once every value has passed.
  ensureDataDir(dataDir);
  return Object.freeze({ ...given, secretKey: secretKey ?? storedSecretKey(dataDir) });
}
