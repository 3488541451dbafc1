/**
 * The form description of a project's GeoPackage layers (schemas/forms.ts) from its QGIS
 * project (qgis-project.ts) and the GeoPackages' own tables (gpkg-tables.ts). Runs in the
 * sandbox (run.ts): it reads the files it is given (local copies) and returns
 * plain data.
 */
import { readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import {
  MAX_QGIS_PROJECT_BYTES,
  MAX_WIDGET_OPTIONS,
  type FormConstraints,
  type FormDefault,
  type FormField,
  type FormItem,
  type FormLayer,
  type FormOption,
  type FormWidget,
  type ProjectFileProblem,
  type ProjectForms,
} from '../../schemas/forms';
import type { MapValue } from '../../schemas/map';
import { gpkgTables, q, type GpkgTable, type TableColumn } from './gpkg-tables';
import {
  readQgisProject,
  type OptionMap,
  type OptionValue,
  type QgisField,
  type QgisFormNode,
  type QgisLayer,
} from './qgis-project';
import { qgsFromQgz } from './qgz';
import { compileFilter } from './filter';

export interface FormsRequest {
  kind: 'forms';
  /** The QGIS project file chosen (project path and local copy), or null. */
  project: { path: string; file: string } | null;
  problem: ProjectFileProblem | null;
  /** The version's GeoPackages: project path and local copy. */
  gpkgs: { path: string; file: string }[];
}

/** The forms, every layer editable as far as the project allows (the caller's rights come later). */
export type FormsResult = Omit<ProjectForms, 'version'>;

/** QGIS's ValueMap value standing for NULL. */
const VALUE_MAP_NULL = '{2839923C-8B7D-419E-B84B-CA2FE9B80EC7}';

type Resolved = { layer: QgisLayer; file: string; table: string };

const str = (v: OptionValue | undefined): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
const num = (v: OptionValue | undefined): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const bool = (v: OptionValue | undefined, fallback: boolean): boolean =>
  typeof v === 'boolean'
    ? v
    : v === 'true' || v === '1'
      ? true
      : v === 'false' || v === '0'
        ? false
        : fallback;

/** `a/b/../c` → `a/c`; null when it leaves the project. */
function normalise(path: string): string | null {
  const out: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** The project path a QGIS layer's source names, among `gpkgPaths`. */
export function resolveSource(
  sourcePath: string,
  projectPath: string,
  gpkgPaths: string[],
): string | null {
  const dir = projectPath.includes('/')
    ? projectPath.slice(0, projectPath.lastIndexOf('/') + 1)
    : '';
  const source = sourcePath.replace(/\\/g, '/');
  const absolute = source.startsWith('/') || /^[A-Za-z]:\//.test(source);
  if (!absolute) {
    const path = normalise(dir + source);
    return path !== null && gpkgPaths.includes(path) ? path : null;
  }
  // An absolute path (a project saved with absolute paths): the longest project path it ends with.
  const matches = gpkgPaths.filter((p) => source.toLowerCase().endsWith(`/${p.toLowerCase()}`));
  return matches.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** A default expression QGIS would evaluate, as the client can: null for anything else. */
export function defaultOf(expression: string | null): FormDefault | null {
  if (expression === null) return null;
  const e = expression.trim();
  if (/^(now\s*\(\s*\)|\$now)$/i.test(e)) return { kind: 'now' };
  if (/^uuid\s*\(\s*('WithBraces')?\s*\)$/i.test(e)) return { kind: 'uuid' };
  if (e === '@mergin_username') return { kind: 'username' };
  if (e === '@mergin_user_email') return { kind: 'user_email' };
  if (e === '@mergin_project_name') return { kind: 'project_name' };
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(e)) return { kind: 'constant', value: Number(e) };
  const text = /^'((?:[^']|'')*)'$/.exec(e);
  if (text) return { kind: 'constant', value: text[1]!.replace(/''/g, "'") };
  if (/^true$/i.test(e)) return { kind: 'constant', value: true };
  if (/^false$/i.test(e)) return { kind: 'constant', value: false };
  return null;
}

function valueMapOptions(config: OptionMap): FormOption[] {
  const entries: [string, OptionValue][] = [];
  const map = config.map;
  if (Array.isArray(map)) {
    for (const item of map) {
      if (item && typeof item === 'object' && !Array.isArray(item))
        entries.push(...Object.entries(item));
    }
  } else if (map && typeof map === 'object') entries.push(...Object.entries(map));
  return entries.map(([label, value]) => {
    const v = str(value);
    return { label, value: v === VALUE_MAP_NULL ? null : v };
  });
}

function cell(value: unknown): MapValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
    return value;
  return String(value);
}

/** `@project_home + '/photos'`-style roots, relative to the project file's folder. */
export function photoDirectory(config: OptionMap, projectDir: string): string {
  const collection = config.PropertyCollection;
  let expression: string | null = null;
  if (collection && typeof collection === 'object' && !Array.isArray(collection)) {
    const properties = (collection as OptionMap).properties;
    const root =
      properties && typeof properties === 'object' && !Array.isArray(properties)
        ? (properties as OptionMap).propertyRootPath
        : null;
    if (root && typeof root === 'object' && !Array.isArray(root) && bool(root.active, false)) {
      expression = str(root.expression);
    }
  }
  let path: string | null = null;
  if (expression) {
    // Concatenations of @project_home / @project_folder and string literals only.
    const parts = expression.split(/\s*(?:\+|\|\|)\s*/);
    const out: string[] = [];
    for (const part of parts.map((p) => p.trim())) {
      if (part === '@project_home' || part === '@project_folder') out.push('');
      else if (/^'((?:[^']|'')*)'$/.test(part)) out.push(part.slice(1, -1).replace(/''/g, "'"));
      else return projectDir;
    }
    path = out.join('');
  } else {
    const root = str(config.DefaultRoot);
    if (root && !root.startsWith('/') && !/^[A-Za-z]:/.test(root)) path = root;
  }
  if (path === null) return projectDir;
  const joined = normalise(projectDir + path.replace(/^\/+/, ''));
  return joined ?? projectDir;
}

interface WidgetContext {
  db: Database.Database;
  table: GpkgTable;
  column: TableColumn;
  resolved: Map<string, Resolved>;
  openTable(file: string): { db: Database.Database; tables: GpkgTable[] } | null;
  projectDir: string;
}

function limitedOptions(rows: unknown[][]): { options: FormOption[]; truncated: boolean } {
  const truncated = rows.length > MAX_WIDGET_OPTIONS;
  const options = rows.slice(0, MAX_WIDGET_OPTIONS).map(([value, label]) => ({
    value: cell(value),
    label: label === null || label === undefined ? '' : String(cell(label)),
  }));
  return { options, truncated };
}

function valueRelation(config: OptionMap, ctx: WidgetContext): FormWidget {
  const key = str(config.Key) ?? '';
  const value = str(config.Value) ?? '';
  const filter = str(config.FilterExpression);
  const widget: FormWidget = {
    type: 'value_relation',
    key,
    value,
    filter: filter && filter.trim() !== '' ? filter : null,
    filter_applied: false,
    allow_multi: bool(config.AllowMulti, false),
    allow_null: bool(config.AllowNull, false),
    layer_file: null,
    layer_table: null,
    options: [],
    truncated: false,
  };
  const source = ctx.resolved.get(str(config.Layer) ?? '');
  if (!source) return widget;
  widget.layer_file = source.file;
  widget.layer_table = source.table;
  const opened = ctx.openTable(source.file);
  const table = opened?.tables.find((t) => t.name.toLowerCase() === source.table.toLowerCase());
  if (!opened || !table) return widget;
  const names = new Map(
    [...(table.fid ? [table.fid] : []), ...table.columns.map((c) => c.name)].map((n) => [
      n.toLowerCase(),
      n,
    ]),
  );
  const keyColumn = names.get(key.toLowerCase());
  const valueColumn = names.get(value.toLowerCase());
  if (!keyColumn || !valueColumn) return widget;
  let where = '';
  let params: unknown[] = [];
  if (widget.filter) {
    const compiled = compileFilter(widget.filter, (name) => names.get(name.toLowerCase()) ?? null);
    if (compiled) {
      where = `WHERE ${compiled.sql}`;
      params = compiled.params;
      widget.filter_applied = true;
    }
  }
  const order = bool(config.OrderByValue, false) ? q(valueColumn) : q(keyColumn);
  const rows = opened.db
    .prepare(
      `SELECT ${q(keyColumn)}, ${q(valueColumn)} FROM ${q(table.name)} ${where} ORDER BY ${order} LIMIT ?`,
    )
    .raw(true)
    .all(...params, MAX_WIDGET_OPTIONS + 1) as unknown[][];
  Object.assign(widget, limitedOptions(rows));
  return widget;
}

function uniqueValues(config: OptionMap, ctx: WidgetContext): FormWidget {
  const c = q(ctx.column.name);
  const rows = ctx.db
    .prepare(
      `SELECT DISTINCT ${c}, ${c} FROM ${q(ctx.table.name)} WHERE ${c} IS NOT NULL ORDER BY 1 LIMIT ?`,
    )
    .raw(true)
    .all(MAX_WIDGET_OPTIONS + 1) as unknown[][];
  return { type: 'unique_values', editable: bool(config.Editable, false), ...limitedOptions(rows) };
}

function dateTimeWidget(config: OptionMap, column: TableColumn): FormWidget {
  const fieldFormat = str(config.field_format);
  const display = str(config.display_format);
  const pattern = fieldFormat ?? display ?? '';
  const hasDate = /[yMd]/.test(pattern);
  const hasTime = /[Hhms]/.test(pattern);
  const mode: 'date' | 'time' | 'datetime' =
    pattern === ''
      ? column.type === 'date'
        ? 'date'
        : 'datetime'
      : hasDate && hasTime
        ? 'datetime'
        : hasTime
          ? 'time'
          : 'date';
  const fallback =
    mode === 'date' ? 'yyyy-MM-dd' : mode === 'time' ? 'HH:mm:ss' : 'yyyy-MM-dd HH:mm:ss';
  return {
    type: 'datetime',
    mode,
    display_format: display && display !== '' ? display : fallback,
    field_format: fieldFormat,
    allow_null: bool(config.allow_null, true),
  };
}

function checkboxWidget(config: OptionMap, column: TableColumn): FormWidget {
  if (column.type === 'boolean') return { type: 'checkbox', checked: true, unchecked: false };
  const checked = str(config.CheckedState) ?? '';
  const unchecked = str(config.UncheckedState) ?? '';
  if (column.type === 'integer' || column.type === 'double') {
    return {
      type: 'checkbox',
      checked: num(checked) ?? 1,
      unchecked: num(unchecked) ?? 0,
    };
  }
  return {
    type: 'checkbox',
    checked: checked === '' ? 'true' : checked,
    unchecked: unchecked === '' ? 'false' : unchecked,
  };
}

/** The widget QGIS picks for a field without configuration. */
function autoWidget(column: TableColumn): FormWidget {
  if (column.type === 'boolean') return { type: 'checkbox', checked: true, unchecked: false };
  if (column.type === 'date' || column.type === 'datetime') return dateTimeWidget({}, column);
  return { type: 'text', multiline: false };
}

function widgetOf(
  field: QgisField | undefined,
  ctx: WidgetContext,
): { widget: FormWidget; fallback: string | null } {
  const config = field?.config ?? {};
  switch (field?.widget ?? '') {
    case '':
      return { widget: autoWidget(ctx.column), fallback: null };
    case 'TextEdit':
      return {
        widget: { type: 'text', multiline: bool(config.IsMultiline, false) },
        fallback: null,
      };
    case 'Range': {
      const integer = ctx.column.type === 'integer';
      return {
        widget: {
          type: 'range',
          integer,
          min: num(config.Min),
          max: num(config.Max),
          step: num(config.Step),
          precision: integer ? 0 : num(config.Precision),
          allow_null: bool(config.AllowNull, true),
        },
        fallback: null,
      };
    }
    case 'CheckBox':
      return { widget: checkboxWidget(config, ctx.column), fallback: null };
    case 'DateTime':
      return { widget: dateTimeWidget(config, ctx.column), fallback: null };
    case 'ValueMap':
      return { widget: { type: 'value_map', options: valueMapOptions(config) }, fallback: null };
    case 'ValueRelation':
      return { widget: valueRelation(config, ctx), fallback: null };
    case 'UniqueValues':
      return { widget: uniqueValues(config, ctx), fallback: null };
    case 'ExternalResource':
      return {
        widget: { type: 'photo', directory: photoDirectory(config, ctx.projectDir) },
        fallback: null,
      };
    case 'Hidden':
      return { widget: { type: 'hidden' }, fallback: null };
    default:
      return { widget: { type: 'text', multiline: false }, fallback: field!.widget };
  }
}

function constraintsOf(field: QgisField | undefined, column: TableColumn): FormConstraints {
  const flags = field?.constraints ?? 0;
  const qgisNotNull = (flags & 1) !== 0;
  const unique = (flags & 2) !== 0;
  const hasExpression = (flags & 4) !== 0 && field?.expression;
  const strengths = [
    qgisNotNull ? field!.notNullStrength : 0,
    unique ? field!.uniqueStrength : 0,
    hasExpression ? field!.expressionStrength : 0,
  ].filter((s) => s > 0);
  return {
    not_null: qgisNotNull || column.notNull,
    unique,
    max_length: column.type === 'text' ? column.length : null,
    expression: hasExpression ? field!.expression : null,
    expression_description: hasExpression
      ? (field!.expressionDescription ?? field!.expression)
      : null,
    strength:
      column.notNull || strengths.length === 0 || strengths.some((s) => s !== 2) ? 'hard' : 'soft',
  };
}

function itemsOf(nodes: QgisFormNode[], fields: Map<string, FormField>, top: boolean): FormItem[] {
  const items: FormItem[] = [];
  for (const node of nodes) {
    if (node.kind === 'field') {
      const field = fields.get(node.name);
      if (!field || field.hidden) continue;
      items.push({
        kind: 'field',
        field: field.name,
        label: field.label,
        show_label: node.showLabel,
      });
    } else {
      items.push({
        kind: top && !node.groupBox ? 'tab' : 'group',
        label: node.name,
        show_label: node.showLabel,
        columns: node.columns,
        items: itemsOf(node.children, fields, false),
      });
    }
  }
  return items;
}

/** Names of the fields a drag-and-drop layout places. */
function placed(nodes: QgisFormNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.kind === 'field') into.add(node.name);
    else placed(node.children, into);
  }
  return into;
}

function layerForm(
  file: string,
  db: Database.Database,
  table: GpkgTable,
  layer: QgisLayer | null,
  ctx: Omit<WidgetContext, 'db' | 'table' | 'column'>,
): FormLayer {
  const dragAndDrop = layer?.layout === 'tablayout' && layer.form.length > 0;
  const inLayout = dragAndDrop ? placed(layer!.form) : null;
  const fields = new Map<string, FormField>();
  for (const column of table.columns) {
    const qgis = layer?.fields.get(column.name);
    const { widget, fallback } = widgetOf(qgis, { ...ctx, db, table, column });
    const expression = qgis?.defaultExpression ?? null;
    fields.set(column.name, {
      name: column.name,
      alias: qgis?.alias ?? null,
      label: qgis?.alias ?? column.name,
      type: column.type,
      sql_type: column.declared,
      editable: qgis?.editable ?? true,
      hidden: widget.type === 'hidden' || (inLayout !== null && !inLayout.has(column.name)),
      default: defaultOf(expression),
      default_expression: expression,
      constraints: constraintsOf(qgis, column),
      widget,
      fallback,
    });
  }
  const visible = [...fields.values()].filter((f) => !f.hidden);
  const items = dragAndDrop
    ? itemsOf(layer!.form, fields, true)
    : visible.map((f) => ({
        kind: 'field' as const,
        field: f.name,
        label: f.label,
        show_label: true,
      }));
  const reason = layer?.readOnly
    ? 'read_only'
    : table.fid === null
      ? 'no_fid'
      : table.geometry && !table.geometry.transform
        ? 'no_crs'
        : null;
  return {
    name: layer?.name ?? table.name,
    file,
    table: table.name,
    qgis_layer_id: layer?.id ?? null,
    geometry_type: table.geometry?.type ?? null,
    geometry_column: table.geometry?.column ?? null,
    fid_column: table.fid ?? 'rowid',
    crs: table.geometry?.crs ?? null,
    editable: reason === null,
    not_editable_reason: reason,
    layout: !dragAndDrop ? 'auto' : items.some((i) => i.kind === 'tab') ? 'tabs' : 'groups',
    fields: [...fields.values()],
    items,
  };
}

/** Reads the QGIS project file (qgs text or qgz), bounded. */
async function projectXml(path: string, file: string): Promise<string> {
  const bytes = await readFile(file);
  if (bytes.length > MAX_QGIS_PROJECT_BYTES) throw new Error('too_large');
  return /\.qgz$/i.test(path) ? qgsFromQgz(bytes, MAX_QGIS_PROJECT_BYTES) : bytes.toString('utf8');
}

/** The forms of the project's GeoPackages. */
export async function buildForms(request: FormsRequest): Promise<FormsResult> {
  let project: { path: string; layers: QgisLayer[] } | null = null;
  let problem = request.problem;
  if (request.project) {
    try {
      const xml = await projectXml(request.project.path, request.project.file);
      project = { path: request.project.path, layers: readQgisProject(xml).layers };
    } catch (error) {
      problem =
        error instanceof Error && error.message === 'too_large' ? 'too_large' : 'unreadable';
    }
  }
  const opened = new Map<string, { db: Database.Database; tables: GpkgTable[] } | null>();
  const files = new Map(request.gpkgs.map((g) => [g.path, g.file]));
  const openTable = (path: string) => {
    if (!opened.has(path)) {
      const local = files.get(path);
      let entry: { db: Database.Database; tables: GpkgTable[] } | null = null;
      if (local) {
        try {
          const db = new Database(local, { readonly: true, fileMustExist: true });
          try {
            entry = { db, tables: gpkgTables(db) };
          } catch {
            db.close();
          }
        } catch {
          entry = null;
        }
      }
      opened.set(path, entry);
    }
    return opened.get(path)!;
  };
  try {
    const gpkgPaths = [...files.keys()];
    const resolved = new Map<string, Resolved>();
    for (const layer of project?.layers ?? []) {
      if (layer.provider !== 'ogr' || !layer.table) continue;
      const file = resolveSource(layer.sourcePath, project!.path, gpkgPaths);
      if (file) resolved.set(layer.id, { layer, file, table: layer.table });
    }
    const projectDir =
      project && project.path.includes('/')
        ? project.path.slice(0, project.path.lastIndexOf('/') + 1)
        : '';
    const ctx = { resolved, openTable, projectDir };
    const layers: FormLayer[] = [];
    const done = new Set<string>();
    const key = (file: string, table: string) => `${file}|${table.toLowerCase()}`;
    // The QGIS project's layers first, in its order; then every other table.
    for (const { layer, file, table } of resolved.values()) {
      const opened = openTable(file);
      const t = opened?.tables.find((x) => x.name.toLowerCase() === table.toLowerCase());
      if (!opened || !t || done.has(key(file, t.name))) continue;
      done.add(key(file, t.name));
      layers.push(layerForm(file, opened.db, t, layer, ctx));
    }
    for (const path of gpkgPaths.sort()) {
      const opened = openTable(path);
      for (const t of opened?.tables ?? []) {
        if (done.has(key(path, t.name))) continue;
        done.add(key(path, t.name));
        layers.push(layerForm(path, opened!.db, t, null, ctx));
      }
    }
    return {
      project_file: project ? project.path : null,
      project_file_problem: project ? null : problem,
      layers,
    };
  } finally {
    for (const entry of opened.values()) entry?.db.close();
  }
}
