/**
 * Workspace names that are words of the route table (`push`, `by_uuid`, …) would be
 * shadowed by those routes: the admin command and the configuration refuse them. The words
 * come from the registered routes (lib/route-words.ts), not a hand list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand, type CommandContext } from '../../server/src/admin/commands';
import { findWorkspaceByName } from '../../server/src/db/queries/workspaces';
import { shadowingWords } from '../../server/src/lib/route-words';
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

  it('shows that the shadowing is real: GET /v1/project/push/x is not a project lookup', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/project/by_uuid/x' });
    // Answered by the by_uuid route (no such project id), never by namespace "by_uuid".
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe('the admin command', () => {
  it('refuses every route word, in any case, and creates nothing', async () => {
    expect(words.size).toBeGreaterThan(5);
    for (const word of words) {
      const name = word.length >= 2 ? word : `${word}x`;
      if (name !== word) continue;
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
