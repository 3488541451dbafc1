/** The S3-compatible blob store (S3_*); unset S3_BUCKET keeps files in DATA_DIR/blobs. */
import { ConfigError, quoted, read, readBoolean, readHttpUrl, type Env } from './read';
import type { S3Config } from './types';

/** S3 bucket names: 3-63 lower-case letters, digits, dots and hyphens, starting and ending alike. */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function readS3(env: Env): S3Config | null {
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
  const endpoint = readHttpUrl(env, 'S3_ENDPOINT')?.replace(/\/+$/, '') ?? null;
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
