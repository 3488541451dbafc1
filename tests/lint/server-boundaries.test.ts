/**
 * The server's import boundaries (eslint.server-boundaries.js, server/src/README.md) and the
 * import cycles on both sides, checked through ESLint's Node API with the project's real
 * config: small sources linted as if they lived at a path inside the repository, importing real
 * modules. Each forbidden import must be reported and each allowed one must pass, so removing a
 * rule (or breaking the resolution the rules depend on) fails here.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The messages of `rule` ESLint reports for `source` placed at `file` (relative to the root). */
async function errorsOf(rule: string, file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  const messages = result?.messages ?? [];
  expect(messages.filter((message) => message.fatal)).toEqual([]);
  return messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}

const lines = (...source: string[]) => source.join('\n') + '\n';

describe('a route', () => {
  const ROUTE = 'server/src/routes/boundary-fixture.ts';
  const RULE = 'import-x/no-restricted-paths';

  it('fails on the database layer, its types included', async () => {
    const errors = await errorsOf(
      RULE,
      ROUTE,
      lines(
        "import type { User } from '../db/schema';",
        "import { deleteSession } from '../db/queries/sessions';",
        "import type { Executor } from '../db/database';",
        'export const used: [User | null, typeof deleteSession, Executor | null] = [null, deleteSession, null];',
      ),
    );
    expect(errors).toHaveLength(3);
    expect(errors[0]).toContain('"../db/schema"');
    for (const error of errors)
      expect(error).toContain('A route does not import the database layer');
  });

  it('passes through services, the contract and helpers', async () => {
    const errors = await errorsOf(
      RULE,
      ROUTE,
      lines(
        "import type { User } from '../services/users';",
        "import { listMembers } from '../services/workspace-members';",
        "import { ProblemSchema } from '../schemas/common';",
        "import { notModified } from '../lib/etag';",
        'export const used: [User | null, unknown, unknown, unknown] = [null, listMembers, ProblemSchema, notModified];',
      ),
    );
    expect(errors).toEqual([]);
  });
});

describe('a service', () => {
  const SERVICE = 'server/src/services/boundary-fixture.ts';
  const RULE = 'no-restricted-imports';

  it.each([SERVICE, 'server/src/auth/boundary-fixture.ts', 'server/src/jobs/boundary-fixture.ts'])(
    'fails on drizzle-orm, any of its entries, in %s',
    async (file) => {
      const errors = await errorsOf(
        RULE,
        file,
        lines(
          "import { sql } from 'drizzle-orm';",
          "import { pgTable } from 'drizzle-orm/pg-core';",
          'export const used = [sql, pgTable];',
        ),
      );
      expect(errors).toHaveLength(2);
      for (const error of errors) expect(error).toContain('A service does not build SQL');
    },
  );

  it('fails on a table of db/schema.ts, also in a subfolder', async () => {
    const errors = await errorsOf(
      RULE,
      'server/src/services/oidc/boundary-fixture.ts',
      lines(
        "import { users, workspaceMembers, type User } from '../../db/schema';",
        'export const used: [unknown, unknown, User | null] = [users, workspaceMembers, null];',
      ),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain("'users'");
    expect(errors[1]).toContain("'workspaceMembers'");
    for (const error of errors) expect(error).toContain('A service does not query tables itself');
  });

  it('passes with queries from db/queries and the schema’s types and constants', async () => {
    const errors = await errorsOf(
      RULE,
      SERVICE,
      lines(
        "import { findUserByEmail } from '../db/queries/users';",
        "import { WORKSPACE_ROLES, type User } from '../db/schema';",
        "import type { Executor } from '../db/database';",
        'export const used: [unknown, unknown, User | null, Executor | null] = [findUserByEmail, WORKSPACE_ROLES, null, null];',
      ),
    );
    expect(errors).toEqual([]);
  });
});

describe('helpers and the contract', () => {
  const RULE = 'import-x/no-restricted-paths';
  const serviceImport = lines(
    "import { listMembers } from '../services/workspace-members';",
    'export const used = listMembers;',
  );

  it.each(['server/src/lib/boundary-fixture.ts', 'server/src/schemas/boundary-fixture.ts'])(
    'fails when %s imports a service',
    async (file) => {
      const errors = await errorsOf(RULE, file, serviceImport);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('import no service');
    },
  );
});

describe('an import cycle', () => {
  const RULE = 'import-x/no-cycle';

  // Each source is linted at the path of a real module that the module it imports imports
  // back (routes/map.ts imports lib/etag.ts; FileBrowser.tsx imports lib/time.ts).
  it('fails on the server', async () => {
    const errors = await errorsOf(
      RULE,
      'server/src/lib/etag.ts',
      lines("import mapRoutes from '../routes/map';", 'export const used = mapRoutes;'),
    );
    expect(errors).toEqual(['Dependency cycle detected']);
  });

  it('fails in the web app, through the @/ alias', async () => {
    const errors = await errorsOf(
      RULE,
      'src/lib/time.ts',
      lines(
        "import { FileBrowser } from '@/features/projects/components/FileBrowser';",
        'export const used = FileBrowser;',
      ),
    );
    expect(errors).toEqual(['Dependency cycle detected']);
  });

  it('passes when the import back is for types only', async () => {
    const errors = await errorsOf(
      RULE,
      'server/src/lib/etag.ts',
      lines("import type mapRoutes from '../routes/map';", 'export type Used = typeof mapRoutes;'),
    );
    expect(errors).toEqual([]);
  });
});
