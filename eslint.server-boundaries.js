/**
 * The server's import boundaries (server/src/README.md), enforced like the web app's
 * (eslint.boundaries.js):
 * - routes (server/src/routes) never import the database layer (server/src/db), types included:
 *   they reach data through services and speak the contract (server/src/schemas);
 * - services (and auth/, email/, jobs/, geodiff/ beside them) never import `drizzle-orm` nor a
 *   table of db/schema.ts: queries and SQL live in server/src/db/queries/<topic>.ts, and
 *   services call them;
 * - helpers (server/src/lib) and the contract (server/src/schemas) import no service.
 * The table names are read from db/schema.ts, so a new table is bounded the day it lands.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importXFor } from './eslint.boundaries.js';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Every table db/schema.ts declares (`export const name = pgTable(`). */
export const TABLES = [
  ...fs
    .readFileSync(path.join(root, 'server/src/db/schema.ts'), 'utf8')
    .matchAll(/^export const (\w+) = pgTable\(/gm),
].map((match) => match[1]);

/** What the routes call: the services and the domain code beside them (server/src/README.md). */
export const SERVICE_LAYER = [
  'server/src/services',
  'server/src/auth',
  'server/src/email',
  'server/src/jobs',
  'server/src/geodiff',
];

const zones = [
  {
    target: './server/src/routes',
    from: './server/src/db',
    message:
      'A route does not import the database layer (server/src/db), not even its types: call a service, and take shapes from the contract (server/src/schemas) or the service (server/src/README.md).',
  },
  {
    target: ['./server/src/lib', './server/src/schemas'],
    from: './server/src/services',
    message:
      'Helpers (server/src/lib) and the contract (server/src/schemas) import no service: move what both need into lib/ (server/src/README.md).',
  },
];

export const serverBoundaries = [
  {
    files: ['server/src/**/*.ts'],
    ...importXFor('server/tsconfig.json'),
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: SERVICE_LAYER.map((folder) => `${folder}/**/*.ts`),
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^drizzle-orm(/|$)',
              message:
                'A service does not build SQL: put the query in server/src/db/queries/<topic>.ts and call it (server/src/README.md).',
            },
            {
              regex: '(^|/)db/schema$',
              importNames: TABLES,
              message:
                'A service does not query tables itself: put the query in server/src/db/queries/<topic>.ts and call it (server/src/README.md).',
            },
          ],
        },
      ],
    },
  },
];
