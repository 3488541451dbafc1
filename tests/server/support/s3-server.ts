/**
 * An S3-compatible service for the tests: s3rver (a local S3 emulator on a temp folder),
 * started in the test process on a free port. Each test store gets its own bucket.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  /** Runs before the emulator handles each request (to watch what a server sends). */
  onRequest(listener: (request: IncomingMessage) => void): void;
  client: S3Client;
  /** A new empty bucket. */
  createBucket(): Promise<string>;
  /** Environment that makes the server use `bucket`. */
  env(bucket: string): Record<string, string>;
  close(): Promise<void>;
}

export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: S3_CREDENTIALS,
  });
  const httpServer = (server as unknown as { httpServer: Server }).httpServer;
  return {
    endpoint,
    onRequest(listener) {
      httpServer.prependListener('request', listener);
    },
    client,
    async createBucket() {
      const bucket = `waymark-${randomBytes(6).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return bucket;
    },
    env(bucket) {
      return {
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      };
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
