/**
 * The web app's import boundaries (src/README.md), enforced with import-x's
 * `no-restricted-paths` zones as bulletproof-react does:
 * - shared layers (api, db, lib, offline, platform, components, theme, test) never import a
 *   feature, a route or the app;
 * - a feature never imports a route or the app, and reaches another feature only through that
 *   feature's public `src/features/<name>/index.ts`;
 * - composition (src/app, src/routes, src/main.tsx, the worker and service-worker entries)
 *   imports anything.
 * One zone per feature folder, read from the disk, so a new feature is bounded the day it lands.
 * No import cycles (`import-x/no-cycle`; type-only imports do not count).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = path.dirname(fileURLToPath(import.meta.url));

export const SHARED_LAYERS = [
  'src/api',
  'src/db',
  'src/lib',
  'src/offline',
  'src/platform',
  'src/components',
  'src/theme',
  'src/test',
];

const COMPOSITION = ['src/app', 'src/routes', 'src/main.tsx'];

const features = fs
  .readdirSync(path.join(root, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const zones = [
  {
    target: SHARED_LAYERS.map((folder) => `./${folder}`),
    from: ['./src/features', ...COMPOSITION.map((folder) => `./${folder}`)],
    message:
      'Shared code (api, db, lib, offline, platform, components, theme, test) must not import features, routes or the app: move what both need down into a shared layer, or pass it in from the composition (src/README.md).',
  },
  {
    target: './src/features',
    from: COMPOSITION.map((folder) => `./${folder}`),
    message:
      'A feature must not import routes or the app (composition imports features, not the other way round; src/README.md).',
  },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [
      `./${feature}`,
      ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`),
    ],
    message: `A feature imports another feature only through its public index ('@/features/<name>'), never its internals (src/README.md).`,
  })),
];

/**
 * import-x's plugin and settings for the files a tsconfig compiles: imports resolved as
 * TypeScript resolves them (aliases included), and followed into TypeScript sources (no-cycle).
 */
export function importXFor(tsconfig) {
  return {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: path.join(root, tsconfig),
          alwaysTryTypes: true,
        }),
      ],
    },
  };
}

export const boundaries = [
  {
    files: ['src/**/*.{ts,tsx}'],
    ...importXFor('tsconfig.json'),
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
];
