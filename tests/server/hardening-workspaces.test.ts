/**
 * Workspace names that are words of the route table (`push`, `by_uuid`, …) would be
 * shadowed by those routes: the admin command and the configuration refuse them. The words
 * come from the registered routes (lib/route-words.ts), not a hand list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand, type CommandContext } from '../../server/src/admin/commands';
import { findWorkspaceByName, insertWorkspace } from '../../server/src/db/queries/workspaces';
import { shadowingWords } from '../../server/src/lib/route-words';
import { createProject } from './support/seed';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let ctx: CommandContext;
let words: Set<string>;

beforeAll(async () => {
  t = await createTestApp();
  ctx = { config: t.config, getDatabase: async () => t.database };
  words = shadowingWords(t.app.routeIndex.list().map((route) => route.url));
});
afterAll(async () => t.close());

const run = (...argv: string[]) => runAdminCommand(argv, ctx);

describe('shadowingWords', () => {
  it('finds the literal segments beside a workspace parameter, in the real route table', () => {
    for (const word of ['push', 'by_uuid', 'by_names', 'paginated', 'raw', 'download', 'clone']) {
      expect(words, word).toContain(word);
    }
    // The push sub-routes share /v1/project/push/:namespace/:name's place.
    for (const word of ['chunk', 'finish', 'cancel']) expect(words, word).toContain(word);
    // …and access requests: /app/project/access-request/accept/:id vs …/:namespace.
    expect(words).toContain('accept');
    // Words elsewhere in paths are free.
    for (const word of ['project', 'v1', 'app', 'auth', 'user', 'ping']) {
      expect(words, word).not.toContain(word);
    }
  });

  it('is derived from the URLs given (a new route protects its word)', () => {
    const extra = shadowingWords([
      '/v1/project/:namespace/:name',
      '/v1/project/brand-new/:id',
      '/v1/other/thing',
    ]);
    expect([...extra]).toEqual(['brand-new']);
  });
});

describe('the admin command', () => {
  it('refuses every route word, in any case, and creates nothing', async () => {
    expect(words.size).toBeGreaterThan(5);
    // (Every word is a valid name otherwise: 2+ characters of the allowed ones.)
    for (const word of words) {
      const result = await run('workspace', 'create', word);
      expect(result.code, word).not.toBe(0);
      expect(result.stderr).toBe(
        `Workspace name must not be "${word}": the server's paths use that word\n`,
      );
      expect(await findWorkspaceByName(t.database.db, word)).toBeFalsy();
    }
    const upper = await run('workspace', 'create', 'PUSH');
    expect(upper.stderr).toBe(
      `Workspace name must not be "PUSH": the server's paths use that word\n`,
    );
  });

  it('still creates other workspaces', async () => {
    const created = await run('workspace', 'create', 'pushers');
    expect(created.code).toBe(0);
  });
});

describe('the configuration', () => {
  it('refuses GLOBAL_WORKSPACE=push at start', async () => {
    await expect(createTestApp({ env: { GLOBAL_WORKSPACE: 'push' } })).rejects.toThrow(
      `GLOBAL_WORKSPACE must not be "push": the server's paths use that word`,
    );
  });
});

// Last: it makes a workspace named like a route word, which the tests above must not see.
describe('why', () => {
  it('shows that the shadowing is real: a workspace "by_uuid" cannot be reached', async () => {
    // Made behind the rules' back, as an older server could have.
    const workspace = await insertWorkspace(t.database.db, { name: 'by_uuid', storage: 1000 });
    await createProject(t, { name: 'survey', workspaceId: workspace.id, public: true });
    const hidden = await t.app.inject({ method: 'GET', url: '/v1/project/by_uuid/survey' });
    expect(hidden.statusCode).not.toBe(200);
    // The same project in a workspace with an ordinary name is found at the same place.
    const ordinary = await insertWorkspace(t.database.db, { name: 'by_uuids', storage: 1000 });
    await createProject(t, { name: 'survey', workspaceId: ordinary.id, public: true });
    const found = await t.app.inject({ method: 'GET', url: '/v1/project/by_uuids/survey' });
    expect(found.statusCode).toBe(200);
  });
});
