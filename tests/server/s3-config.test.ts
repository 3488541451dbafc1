/**
 * Storage and scale-out configuration: the S3 variables (validated, each error naming its
 * variable) and DATABASE_POOL_SIZE, which bounds the connections of one instance.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/db/database';
import { createTestDataDir, testDatabaseKind, type TestDataDir } from './support/test-db';

let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-config-'));
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

function failure(env: Record<string, string>): { variable: string; message: string } {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('S3 configuration', () => {
  it('is off by default, and complete when S3_BUCKET is set', () => {
    expect(load({}).s3).toBeNull();
    expect(load({ S3_BUCKET: 'waymark-files' }).s3).toEqual({
      bucket: 'waymark-files',
      endpoint: null,
      region: 'us-east-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
      prefix: '',
    });
    expect(
      load({
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_PREFIX: 'waymark/',
      }).s3,
    ).toEqual({
      bucket: 'files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'waymark/',
    });
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(failure({ S3_BUCKET: 'ab' })).toEqual({
      variable: 'S3_BUCKET',
      message: 'S3_BUCKET must be 3-63 lower-case letters, digits, dots or hyphens (got "ab")',
    });
    expect(failure({ S3_BUCKET: 'Files' }).variable).toBe('S3_BUCKET');
    expect(failure({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual({
      variable: 'S3_BUCKET',
      message: 'S3_BUCKET must be set when S3_ENDPOINT is',
    });
    expect(failure({ S3_BUCKET: 'files', S3_ENDPOINT: 'ftp://host' }).variable).toBe('S3_ENDPOINT');
    expect(failure({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'key' })).toEqual({
      variable: 'S3_SECRET_ACCESS_KEY',
      message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    });
    expect(failure({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'secret' }).variable).toBe(
      'S3_ACCESS_KEY_ID',
    );
    expect(failure({ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'maybe' }).variable).toBe(
      'S3_FORCE_PATH_STYLE',
    );
    expect(failure({ S3_BUCKET: 'files', S3_PREFIX: '../x y' }).variable).toBe('S3_PREFIX');
    expect(failure({ S3_BUCKET: 'files', S3_REGION: 'EU West' }).variable).toBe('S3_REGION');
    // The secret is never echoed.
    expect(failure({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'hunter2' }).message).not.toMatch(
      /hunter2/,
    );
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 10 and accepts 1 to 1000', () => {
    expect(load({}).databasePoolSize).toBe(10);
    expect(load({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const bad of ['0', '1001', 'ten', '2.5']) {
      expect(failure({ DATABASE_POOL_SIZE: bad })).toEqual({
        variable: 'DATABASE_POOL_SIZE',
        message: `DATABASE_POOL_SIZE must be an integer between 1 and 1000 (got "${bad}")`,
      });
    }
  });

  describe.runIf(testDatabaseKind() === 'postgres')('on PostgreSQL', () => {
    let data: TestDataDir;
    beforeAll(async () => {
      data = await createTestDataDir();
    });
    afterAll(async () => {
      await data?.cleanup();
    });

    /** Backend pids of two concurrent connections: the first is held until the second asks. */
    async function twoConnections(size: string): Promise<number[]> {
      const database = await openDatabase(
        loadConfig({ ...data.env, LOG_LEVEL: 'silent', DATABASE_POOL_SIZE: size }),
      );
      try {
        const pid = 'SELECT pg_backend_pid() AS pid';
        let asked!: () => void;
        const secondAsked = new Promise<void>((resolve) => (asked = resolve));
        const first = database.withClient(async (client) => {
          await secondAsked;
          return (await client.query<{ pid: number }>(pid))[0]!.pid;
        });
        const second = database.withClient(async (client) => {
          return (await client.query<{ pid: number }>(pid))[0]!.pid;
        });
        asked();
        return await Promise.all([first, second]);
      } finally {
        await database.close();
      }
    }

    it('bounds the connections of one instance', async () => {
      const [a, b] = await twoConnections('1');
      expect(a).toBe(b);
      const [c, d] = await twoConnections('2');
      expect(c).not.toBe(d);
    });
  });
});
