/**
 * The blob store the configuration names: an S3-compatible bucket when S3_BUCKET is set,
 * else the local folder DATA_DIR/blobs. The push staging goes with it (BlobStore.openStaging).
 */
import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { s3ClientFor, S3BlobStore } from './s3-blob-store';

export function openBlobStore(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  if (config.s3) return new S3BlobStore(s3ClientFor(config.s3), config.s3.bucket, config.s3.prefix);
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
