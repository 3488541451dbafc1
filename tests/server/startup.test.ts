import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatePassword } from '../../server/src/auth/passwords';
import { countUsers } from '../../server/src/db/queries/users';
import { findWorkspaceByName, insertWorkspace } from '../../server/src/db/queries/workspaces';
import { startServer, type RunningServer } from '../../server/src/main';
import { freePort, runTsx } from './support/processes';
import { createTestDataDir, type TestDataDir } from './support/test-db';

let data: TestDataDir;

beforeAll(async () => {
  data = await createTestDataDir();
});

afterAll(async () => {
  await data?.cleanup();
});

async function start(
  env: Record<string, string>,
): Promise<{ server: RunningServer; lines: string[] }> {
  const lines: string[] = [];
  const server = await startServer(
    { ...data.env, LOG_LEVEL: 'silent', ...env },
    { handleSignals: false, exitOnError: false, print: (line) => lines.push(line), distDir: null },
  );
  return { server, lines };
}

async function login(server: RunningServer, password: string): Promise<number> {
  const init = await server.app.inject({ method: 'GET', url: '/app/init' });
  const cookie = init.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const response = await server.app.inject({
    method: 'POST',
    url: '/app/auth/login',
    headers: { cookie, 'x-csrf-token': String(init.headers['x-csrf-token']) },
    payload: { login: 'admin', password },
  });
  return response.statusCode;
}

describe('first start and restart', () => {
  it('creates the superuser once, prints its generated password once, and keeps data', async () => {
    const port = await freePort();
    const env = { PORT: String(port), GLOBAL_WORKSPACE: 'field', GLOBAL_STORAGE: '123456' };

    const first = await start(env);
    let password: string;
    try {
      expect(first.lines[0]).toBe(`Waymark is running at http://127.0.0.1:${port}`);
      const match = /^Sign in as admin with the password (\S+)$/m.exec(first.lines[1] ?? '');
      expect(match, first.lines.join('\n')).not.toBeNull();
      password = match![1]!;
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(validatePassword(password)).toBeNull();
      expect(first.server.bootstrap.createdAdmin?.generatedPassword).toBe(password);

      // It really listens.
      const ping = await fetch(`http://127.0.0.1:${port}/ping`);
      expect(ping.status).toBe(200);
      expect(await login(first.server, password)).toBe(200);

      const workspace = await findWorkspaceByName(first.server.database.db, 'field');
      expect(workspace).toMatchObject({ name: 'field', storage: 123456 });
      await insertWorkspace(first.server.database.db, { name: 'kept', storage: 1 });
    } finally {
      await first.server.close();
    }
    // Closed: the port is free again.
    await expect(fetch(`http://127.0.0.1:${port}/ping`)).rejects.toThrow();

    const second = await start({ ...env, GLOBAL_STORAGE: '999' });
    try {
      expect(second.server.bootstrap.createdAdmin).toBeNull();
      expect(second.lines.join('\n')).not.toContain(password);
      expect(second.lines[1]).toBe(
        'Sign in with the ADMIN_USERNAME account (admin) or another user',
      );
      expect(await countUsers(second.server.database.db)).toBe(1);
      expect(await findWorkspaceByName(second.server.database.db, 'kept')).not.toBeNull();
      // The global workspace follows GLOBAL_STORAGE.
      expect(await findWorkspaceByName(second.server.database.db, 'field')).toMatchObject({
        storage: 999,
      });
      expect(await login(second.server, password)).toBe(200);
    } finally {
      await second.server.close();
    }
  });

  it('keeps the generated SECRET_KEY in DATA_DIR with mode 0600', () => {
    const file = path.join(data.dataDir, 'secret_key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('exits with status 1 and names the variable on a configuration error', async () => {
    const result = await runTsx('server/src/main.ts', [], { ...data.env, PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Configuration error: PORT must be an integer between 1 and 65535 (got "abc")',
    );
  });
});
