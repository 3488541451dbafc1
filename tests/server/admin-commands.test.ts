import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand, type CommandContext } from '../../server/src/admin/commands';
import { findUserByUsername } from '../../server/src/db/queries/users';
import { findWorkspaceByName } from '../../server/src/db/queries/workspaces';
import { workspaceMembers } from '../../server/src/db/schema';
import { createTestApp, type TestApp } from './support/test-app';

describe('admin commands (in process)', () => {
  let t: TestApp;
  let ctx: CommandContext;

  beforeAll(async () => {
    t = await createTestApp();
    ctx = { config: t.config, getDatabase: async () => t.database };
  });

  afterAll(async () => {
    await t?.close();
  });

  const run = (...argv: string[]) => runAdminCommand(argv, ctx);

  it('creates users, refusing duplicates', async () => {
    const created = await run('user', 'create', 'jane.doe', 'jane@example.com', 'Jane-Password-1');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/^Created user "jane.doe" \(id \d+\)\.\n$/);
    const jane = await findUserByUsername(t.database.db, 'jane.doe');
    expect(jane).toMatchObject({ active: true, isAdmin: false, verifiedEmail: true });

    const superuser = await run(
      'user',
      'create',
      'chief',
      'chief@example.com',
      'Chief-Password-1',
      '--superuser',
    );
    expect(superuser.stdout).toContain('as a superuser');
    expect((await findUserByUsername(t.database.db, 'chief'))?.isAdmin).toBe(true);

    const byName = await run('user', 'create', 'JANE.DOE', 'other@example.com', 'Jane-Password-1');
    expect(byName).toEqual({
      code: 1,
      stdout: '',
      stderr: 'User with this username already exists\n',
    });
    const byEmail = await run('user', 'create', 'janet', 'JANE@example.com', 'Jane-Password-1');
    expect(byEmail).toEqual({
      code: 1,
      stdout: '',
      stderr: 'User with this email already exists\n',
    });
  });

  it('creates workspaces and sets roles', async () => {
    const created = await run('workspace', 'create', 'team', '--storage', '1000');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/Created workspace "team" \(id \d+, storage 1000 bytes\)/);
    const defaulted = await run('workspace', 'create', 'second');
    expect(defaulted.stdout).toContain(`storage ${t.config.globalStorage} bytes`);
    expect((await run('workspace', 'create', 'TEAM')).stderr).toBe(
      'Workspace with this name already exists\n',
    );

    const role = await run('workspace', 'role', 'team', 'jane.doe', 'writer');
    expect(role).toEqual({
      code: 0,
      stdout: 'User "jane.doe" is now writer in workspace "team".\n',
      stderr: '',
    });
    const members = await t.database.db.select().from(workspaceMembers);
    const team = await findWorkspaceByName(t.database.db, 'team');
    expect(members).toContainEqual({
      workspaceId: team!.id,
      userId: (await findUserByUsername(t.database.db, 'jane.doe'))!.id,
      role: 'writer',
    });
    expect((await run('workspace', 'role', 'nope', 'jane.doe', 'reader')).code).toBe(1);
    expect((await run('workspace', 'role', 'team', 'nobody', 'reader')).stderr).toBe(
      'User "nobody" does not exist\n',
    );
  });

  it('switches maintenance mode', async () => {
    const flag = path.join(t.config.dataDir, 'MAINTENANCE');
    expect((await run('maintenance', 'on')).stdout).toBe('Maintenance mode is on.\n');
    expect(fs.existsSync(flag)).toBe(true);
    expect((await run('maintenance', 'off')).stdout).toBe('Maintenance mode is off.\n');
    expect(fs.existsSync(flag)).toBe(false);
  });

  it.each([
    [
      ['user', 'create', 'ab', 'a@example.com', 'Jane-Password-1'],
      'Username must be 4 to 50 characters long',
    ],
    [
      ['user', 'create', ' lead', 'a@example.com', 'Jane-Password-1'],
      'Username must not start with a space or a dot',
    ],
    [
      ['user', 'create', 'bad/name', 'a@example.com', 'Jane-Password-1'],
      'Username may contain only',
    ],
    [
      ['user', 'create', 'goodname', 'not-email', 'Jane-Password-1'],
      "Email address 'not-email' is invalid.",
    ],
    [
      ['user', 'create', 'goodname', 'a@example.com', 'short'],
      'Passwords must be at least 8 characters long.',
    ],
    [
      ['user', 'create', 'goodname', 'a@example.com', 'lowercaseonly'],
      'Password is not strong enough',
    ],
    [['user', 'create', 'goodname', 'a@example.com'], 'Missing <password>'],
    [
      ['user', 'create', 'goodname', 'a@example.com', 'Jane-Password-1', '--admin'],
      'Unknown option --admin',
    ],
    [
      ['workspace', 'create', 'x', '--storage', '10GB'],
      'Workspace name must be 2 to 50 characters long',
    ],
    [
      ['workspace', 'create', 'team2', '--storage', '10GB'],
      '--storage must be a whole number of bytes (got "10GB")',
    ],
    [['workspace', 'create', 'team2', '--storage'], '--storage needs a value'],
    [
      ['workspace', 'role', 'team', 'jane.doe', 'superuser'],
      'Role must be one of guest, reader, writer, admin, owner (got "superuser")',
    ],
    [['maintenance', 'maybe'], 'maintenance needs "on" or "off"'],
    [['frobnicate'], 'Unknown command "frobnicate"'],
    [['user', 'delete', 'x'], 'Unknown command "user delete"'],
  ])('refuses %j with exit code 2', async (argv, message) => {
    const result = await runAdminCommand(argv, ctx);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Error: ${message}`);
    expect(result.stderr).toContain('Usage: npm run admin -- <command>');
  });

  it('prints help', async () => {
    const result = await run('help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('user create <username> <email> <password> [--superuser]');
  });
});
