/** The blob store the configuration names: the local folder DATA_DIR/blobs. */
import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';

export function openBlobStore(config: Config): LocalBlobStore & BlobStore {
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
