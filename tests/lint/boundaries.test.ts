/**
 * The web app's import boundaries (eslint.boundaries.js, src/README.md), checked through ESLint's
 * own Node API with the project's real config: small sources linted as if they lived at a path
 * inside src/, importing real modules. Each forbidden import must be reported by
 * import-x/no-restricted-paths, and each allowed one must pass, so removing a zone (or breaking
 * the `@/` resolution the zones depend on) fails here.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const RULE = 'import-x/no-restricted-paths';

/** The boundary errors ESLint reports for `source` placed at `file` (relative to src/). */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, 'src', file) });
  const messages = result?.messages ?? [];
  const fatal = messages.filter((message) => message.fatal);
  expect(fatal).toEqual([]);
  return messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

const FEATURE_FILE = 'features/history/components/BoundaryFixture.tsx';

describe('a feature importing another feature', () => {
  it('fails on the other feature’s internals, by alias or relative path', async () => {
    const errors = await boundaryErrors(
      FEATURE_FILE,
      [
        "import { fileName } from '@/features/projects/model/files';",
        "import { FileIcon } from '../../projects/components/FileIcon';",
        'export const used = [fileName, FileIcon];',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('"@/features/projects/model/files"');
    expect(errors[0]).toContain('only through its public index');
    expect(errors[1]).toContain('"../../projects/components/FileIcon"');
  });

  it('passes through the other feature’s public index, its own internals and shared layers', async () => {
    const errors = await boundaryErrors(
      FEATURE_FILE,
      [
        "import { fileName } from '@/features/projects';",
        "import { VERSIONS_PER_PAGE } from '../model/version';",
        "import { api } from '@/api';",
        "import { useOnline } from '@/offline/useOnline';",
        "import { configQueryOptions } from '@/platform/config';",
        "import { lazyMenu } from '@/components/lazyMenu';",
        'export const used = [fileName, VERSIONS_PER_PAGE, api, useOnline, configQueryOptions, lazyMenu];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('fails on the composition layer (app, routes)', async () => {
    const errors = await boundaryErrors(
      FEATURE_FILE,
      [
        "import { useViewer } from '@/app/useViewer';",
        "import { Route } from '@/routes/_app';",
        'export const used = [useViewer, Route];',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toContain('must not import routes or the app');
  });
});

describe('a shared layer importing upwards', () => {
  const featureImport = [
    "import { projectArchiveUrl } from '@/features/projects';",
    "import { LoginForm } from '@/features/auth/components/LoginForm';",
    'export const used = [projectArchiveUrl, LoginForm];',
  ].join('\n');

  it.each(['lib/boundaryFixture.ts', 'db/boundaryFixture.ts', 'offline/boundaryFixture.ts'])(
    'fails when %s imports a feature, even its public index',
    async (file) => {
      const errors = await boundaryErrors(file, featureImport);
      expect(errors).toHaveLength(2);
      for (const error of errors) expect(error).toContain('Shared code');
    },
  );

  it('fails when a shared component imports the app', async () => {
    const errors = await boundaryErrors(
      'components/BoundaryFixture.tsx',
      "import { createAppRouter } from '../app/router';\nexport const used = createAppRouter;",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"../app/router"');
  });

  it('passes when it imports other shared layers', async () => {
    const errors = await boundaryErrors(
      'lib/boundaryFixture.ts',
      [
        "import { api } from '@/api';",
        "import { db } from '@/db';",
        "import { offlineOwner } from '@/offline/owner';",
        "import { theme } from '@/theme/theme';",
        'export const used = [api, db, offlineOwner, theme];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });
});

describe('the composition layer', () => {
  it('imports features, their internals included', async () => {
    const errors = await boundaryErrors(
      'routes/boundaryFixture.tsx',
      [
        "import { LoginForm } from '@/features/auth/components/LoginForm';",
        "import { FileIcon } from '@/features/projects';",
        "import { useViewer } from '@/app/useViewer';",
        'export const used = [LoginForm, FileIcon, useViewer];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });
});
