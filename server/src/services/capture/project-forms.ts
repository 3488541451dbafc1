/**
 * GET /app/map/{namespace}/{name}/forms (schemas/forms.ts): the caller's read access (as the
 * map's), the version's files, the QGIS project file chosen as the mobile app chooses it,
 * the forms built in the sandbox (forms.ts) from local copies and kept in memory by
 * the files' checksums (versions sharing those bytes share the forms), then the caller's
 * right to edit laid over them.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../context';
import { listCurrentFiles, listFilesAtVersion, type FileRow } from '../../db/queries/files';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { isQgisProjectFile } from '../../lib/paths';
import {
  MAX_QGIS_PROJECT_BYTES,
  type FormsQuery,
  type ProjectFileProblem,
  type ProjectForms,
} from '../../schemas/forms';
import { copyBlob } from '../changesets';
import { Lru } from '../map/lru';
import { localCopy } from '../map/store';
import { projectFor, type ProjectAccess, type ProjectRef } from '../permissions';
import { parseVersionName, VERSION_NOT_FOUND } from '../project-detail';
import type { EditRules } from './edit-rules';
import type { FormsResult } from './forms';
import { runCaptureWork } from './run';
import { isGeoPackage } from '../../schemas/protocol';

/** Forms kept in memory (by the files' checksums). */
export const FORMS_CACHED = 64;
/** Bumped when the forms' format changes, so cached answers are not reused. */
const FORMAT = 'f1';

interface State {
  cache: Lru<FormsResult>;
  loading: Map<string, Promise<FormsResult>>;
  rules: Lru<EditRules>;
  /** Serialised answers by ETag (a warm request only checks access and lists the files). */
  bodies: Lru<Buffer>;
}
const states = new WeakMap<AppContext, State>();
function stateOf(ctx: AppContext): State {
  let state = states.get(ctx);
  if (!state) {
    state = {
      cache: new Lru<FormsResult>(FORMS_CACHED),
      loading: new Map(),
      rules: new Lru<EditRules>(FORMS_CACHED),
      bodies: new Lru<Buffer>(FORMS_CACHED),
    };
    states.set(ctx, state);
  }
  return state;
}

/** The QGIS project file the mobile app would open: the only one, else none and why. */
export function chooseProjectFile(files: FileRow[]): {
  file: FileRow | null;
  problem: ProjectFileProblem | null;
} {
  const found = files.filter((f) => isQgisProjectFile(f.path));
  if (found.length === 1) {
    const file = found[0]!;
    return file.size > MAX_QGIS_PROJECT_BYTES
      ? { file: null, problem: 'too_large' }
      : { file, problem: null };
  }
  return { file: null, problem: found.length === 0 ? 'none' : 'multiple' };
}

/** The version's files (the latest when `version` is null). */
export async function filesOf(
  ctx: AppContext,
  access: ProjectAccess,
  version: number | null,
): Promise<FileRow[]> {
  const db = ctx.database.db;
  return version === null || version === access.project.latestVersion
    ? listCurrentFiles(db, access.project.id)
    : listFilesAtVersion(db, access.project.id, version);
}

function keyOf(files: FileRow[], project: FileRow | null): string {
  const hash = createHash('sha1').update(FORMAT);
  if (project) hash.update(`p:${project.path}:${project.checksum}\n`);
  for (const f of files) if (isGeoPackage(f.path)) hash.update(`g:${f.path}:${f.checksum}\n`);
  return hash.digest('hex');
}

/** The forms of these files (from the cache, or built in the sandbox). */
export async function formsOfFiles(ctx: AppContext, files: FileRow[]): Promise<FormsResult> {
  const { file: project, problem } = chooseProjectFile(files);
  const key = keyOf(files, project);
  const state = stateOf(ctx);
  const cached = state.cache.get(key);
  if (cached) return cached;
  let loading = state.loading.get(key);
  if (!loading) {
    loading = (async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'waymark-forms-'));
      try {
        const gpkgs = await Promise.all(
          files
            .filter((f) => isGeoPackage(f.path))
            .map(async (f) => ({
              path: f.path,
              file: await localCopy(ctx, { key: f.blobKey, checksum: f.checksum, size: f.size }),
            })),
        );
        let projectCopy: { path: string; file: string } | null = null;
        if (project) {
          const local = path.join(
            dir,
            /\.qgz$/i.test(project.path) ? 'project.qgz' : 'project.qgs',
          );
          await copyBlob(ctx, project.blobKey, local);
          projectCopy = { path: project.path, file: local };
        }
        const { kind: _kind, ...forms } = await runCaptureWork(
          ctx,
          { kind: 'forms', project: projectCopy, problem, gpkgs },
          'interactive',
        );
        state.cache.set(key, forms);
        return forms;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })().finally(() => state.loading.delete(key));
    state.loading.set(key, loading);
  }
  return loading;
}

/** The forms with the caller's right to edit laid over them. */
export function formsFor(forms: FormsResult, version: number, canUpload: boolean): ProjectForms {
  return {
    version: `v${version}`,
    project_file: forms.project_file,
    project_file_problem: forms.project_file_problem,
    layers: forms.layers.map((layer) =>
      layer.editable && !canUpload
        ? { ...layer, editable: false, not_editable_reason: 'permission' as const }
        : layer,
    ),
  };
}

/** GET …/forms: the answer (serialised JSON, kept by its ETag) and its ETag. */
export async function projectForms(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: FormsQuery,
): Promise<{ body: Buffer; etag: string; explicitVersion: boolean }> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const requested = parseVersionName(query.version);
  if (requested !== null && requested > access.project.latestVersion) {
    throw notFound(VERSION_NOT_FOUND);
  }
  const version = requested ?? access.project.latestVersion;
  const files = await filesOf(ctx, access, version);
  const canUpload = access.permissions.upload;
  const { file } = chooseProjectFile(files);
  const etag = `"${keyOf(files, file)}.${version}.${canUpload ? 'w' : 'r'}"`;
  const state = stateOf(ctx);
  let body = state.bodies.get(etag);
  if (!body) {
    const forms: ProjectForms = formsFor(await formsOfFiles(ctx, files), version, canUpload);
    body = Buffer.from(JSON.stringify(forms));
    state.bodies.set(etag, body);
  }
  return { body, etag, explicitVersion: requested !== null };
}

/**
 * What the QGIS project of these files enforces on edits (edit-rules.ts), per GeoPackage:
 * from the project file alone, cached by its checksum and the GeoPackages' paths.
 */
export async function editRulesOf(ctx: AppContext, files: FileRow[]): Promise<EditRules> {
  const { file: project } = chooseProjectFile(files);
  if (!project) return {};
  const gpkgPaths = files.filter((f) => isGeoPackage(f.path)).map((f) => f.path);
  const key = createHash('sha1')
    .update(`${FORMAT}:${project.path}:${project.checksum}\n${gpkgPaths.join('\n')}`)
    .digest('hex');
  const state = stateOf(ctx);
  const cached = state.rules.get(key);
  if (cached) return cached;
  const dir = await mkdtemp(path.join(tmpdir(), 'waymark-rules-'));
  try {
    const local = path.join(dir, /\.qgz$/i.test(project.path) ? 'project.qgz' : 'project.qgs');
    await copyBlob(ctx, project.blobKey, local);
    const { rules } = await runCaptureWork(
      ctx,
      { kind: 'rules', project: { path: project.path, file: local }, gpkgPaths },
      'interactive',
    );
    state.rules.set(key, rules);
    return rules;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
