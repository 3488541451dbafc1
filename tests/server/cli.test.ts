import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { openDatabase, type Database } from '../../server/src/db/database';
import { findUserByUsername } from '../../server/src/db/queries/users';
import { startServer } from '../../server/src/main';
import { freePort, runCli } from './support/processes';
import { createTestDataDir, type TestDataDir } from './support/test-db';

describe('npm run admin (separate process)', () => {
  let data: TestDataDir;

  beforeAll(async () => {
    data = await createTestDataDir();
  });

  afterAll(async () => {
    await data?.cleanup();
  });

  it('works directly on the database when no server runs', async () => {
    // A stale socket file left by a crashed server is detected and removed.
    const socket = path.join(data.dataDir, 'admin.sock');
    fs.writeFileSync(socket, '');
    const result = await runCli(
      ['user', 'create', 'direct.user', 'direct@example.com', 'Direct-Password-1'],
      data.env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The first command on an empty database also creates the superuser (shown once).
    expect(result.stdout).toMatch(
      /^Created the superuser admin with the password \S+ \(shown only once\)\.\n/m,
    );
    expect(result.stdout).toMatch(/Created user "direct.user" \(id 2\)\.$/m);
    expect(fs.existsSync(socket)).toBe(false);

    const usage = await runCli(['workspace', 'role', 'a', 'b', 'king'], data.env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Role must be one of');
  });

  it('goes through the running server’s admin socket', async () => {
    const port = await freePort();
    const server = await startServer(
      { ...data.env, PORT: String(port), LOG_LEVEL: 'silent' },
      { handleSignals: false, exitOnError: false, print: () => {}, distDir: null },
    );
    try {
      const socket = path.join(data.dataDir, 'admin.sock');
      expect(fs.statSync(socket).isSocket()).toBe(true);
      expect(fs.statSync(socket).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(data.dataDir, 'admin.secret')).mode & 0o777).toBe(0o600);

      // DATABASE_URL points nowhere: only the server can have run these.
      const env = { ...data.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
      const created = await runCli(
        ['user', 'create', 'socket.user', 'socket@example.com', 'Socket-Password-1'],
        env,
      );
      expect(created.stderr).toBe('');
      expect(created.stdout).toMatch(/^Created user "socket.user" \(id \d+\)\.\n$/);
      expect(created.code).toBe(0);
      expect(await findUserByUsername(server.database.db, 'socket.user')).not.toBeNull();

      const duplicate = await runCli(
        ['user', 'create', 'socket.user', 'other@example.com', 'Socket-Password-1'],
        env,
      );
      expect(duplicate.code).toBe(1);
      expect(duplicate.stderr).toBe('User with this username already exists\n');
    } finally {
      await server.close();
    }
    expect(fs.existsSync(path.join(data.dataDir, 'admin.sock'))).toBe(false);
  });

  it('the embedded database refuses a second opener', async () => {
    if (data.kind !== 'pglite') return;
    const config = loadConfig({ ...data.env, LOG_LEVEL: 'silent' });
    let first: Database | null = null;
    try {
      first = await openDatabase(config);
      await expect(openDatabase(config)).rejects.toThrow(/is in use by another process/);
    } finally {
      await first?.close();
    }
  });
});
