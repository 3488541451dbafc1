import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './eslint.boundaries.js';
import { serverBoundaries } from './eslint.server-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'src/routeTree.gen.ts',
      'test-results',
      'playwright-report',
      'server/src/db/migrations',
      // AssemblyScript (its own types; built by npm run build:sha1-wasm)
      'src/workers/sha1-wasm/assembly',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  // The web app's layers (src/README.md): shared code never imports features, routes or the
  // app; a feature reaches another feature only through its public index.ts.
  ...boundaries,
  // The server's layers (server/src/README.md): routes do not touch the database layer,
  // services build no SQL, lib/ and schemas/ import no service; no import cycles.
  ...serverBoundaries,
  {
    files: [
      'server/**/*.ts',
      'tests/**/*.ts',
      'scripts/**/*.ts',
      'bench/**/*.ts',
      'e2e/**/*.ts',
      '*.ts',
      '*.js',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The wire contract (server/src/schemas/): the web app imports these files' types, so they
  // import only TypeBox and each other (no Node, Fastify or server code).
  {
    files: ['server/src/schemas/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@sinclair/typebox$|\\./[\\w.-]+$)',
              message:
                'The contract (server/src/schemas/) imports only @sinclair/typebox and its own files.',
            },
          ],
        },
      ],
    },
  },
);
