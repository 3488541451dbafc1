/**
 * What the QGIS project says about editing, per GeoPackage, for edit batches: the tables it
 * marks read-only and the fields it requires (hard not-null constraints). Read from the
 * QGIS project file alone (in the sandbox), so a batch never copies a GeoPackage to
 * learn them; cached by the project file's checksum (project-forms.ts editRulesOf).
 */
import { readFile } from 'node:fs/promises';
import { MAX_QGIS_PROJECT_BYTES } from '../../schemas/forms';
import { resolveSource } from './forms';
import { readQgisProject } from './qgis-project';
import { qgsFromQgz } from './qgz';

export interface FileRules {
  /** Lower-case table names. */
  readOnly: string[];
  /** Lower-case table → required column names. */
  required: Record<string, string[]>;
}

export interface EditRulesRequest {
  kind: 'rules';
  project: { path: string; file: string };
  /** The version's GeoPackages (project paths). */
  gpkgPaths: string[];
}

/** Rules per GeoPackage path (files the project does not show have none). */
export type EditRules = Record<string, FileRules>;

export async function buildEditRules(request: EditRulesRequest): Promise<EditRules> {
  const bytes = await readFile(request.project.file);
  if (bytes.length > MAX_QGIS_PROJECT_BYTES) return {};
  let layers;
  try {
    const xml = /\.qgz$/i.test(request.project.path)
      ? qgsFromQgz(bytes, MAX_QGIS_PROJECT_BYTES)
      : bytes.toString('utf8');
    layers = readQgisProject(xml).layers;
  } catch {
    // An unreadable project gives plain forms: nothing to enforce.
    return {};
  }
  const rules: EditRules = {};
  for (const layer of layers) {
    if (layer.provider !== 'ogr' || !layer.table) continue;
    const file = resolveSource(layer.sourcePath, request.project.path, request.gpkgPaths);
    if (!file) continue;
    const table = layer.table.toLowerCase();
    const entry = (rules[file] ??= { readOnly: [], required: {} });
    if (entry.required[table] || entry.readOnly.includes(table)) continue; // the first layer of a table
    if (layer.readOnly) entry.readOnly.push(table);
    entry.required[table] = [...layer.fields.values()]
      .filter((f) => (f.constraints & 1) !== 0 && f.notNullStrength !== 2)
      .map((f) => f.name);
  }
  return rules;
}
