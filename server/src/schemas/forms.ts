/**
 * Feature forms (issue 34): how each GeoPackage layer of a project is edited, read from the
 * project's QGIS project file. Same permissions as the map (read access; public projects
 * for anonymous visitors); `editable` says whether the caller may also change the layer.
 *
 * - GET /app/map/{namespace}/{name}/forms?version → ProjectForms
 *     `version`: `vN`, absent or empty: the latest. Every GeoPackage (.gpkg) of the version
 *     gets one entry per feature or attribute table (gpkg_contents), whether or not the QGIS
 *     project shows it. The QGIS project file is chosen as the mobile app chooses it: the
 *     one .qgs / .qgz file of the project (searched in every folder); none, or several, and
 *     every layer gets a plain form from its columns (`project_file` null,
 *     `project_file_problem` says why). A layer of the QGIS project matches a table through
 *     its data source `./file.gpkg|layername=table` (relative to the project file's folder).
 *     Answers carry `ETag` (the version's file checksums) and `Cache-Control` as the map's;
 *     `If-None-Match` gives 304.
 *
 * Editing itself: schemas/edits.ts.
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { NullableString, StringEnum } from './common';
import { MAP_COLUMN_TYPES, MapValueSchema, type MapValue } from './map';

/** Largest QGIS project file read (bytes of the .qgs text, or of the .qgz). */
export const MAX_QGIS_PROJECT_BYTES = 64 * 1024 * 1024;
/** Most options listed for a ValueRelation or UniqueValues widget (the rest: `truncated`). */
export const MAX_WIDGET_OPTIONS = 2000;

/** Why no QGIS project file was read. */
export const PROJECT_FILE_PROBLEMS = ['none', 'multiple', 'unreadable', 'too_large'] as const;
export type ProjectFileProblem = (typeof PROJECT_FILE_PROBLEMS)[number];

/** An option of a ValueMap / ValueRelation / UniqueValues widget. */
export const FormOptionSchema = Type.Object({
  /** The value stored in the column. */
  value: MapValueSchema,
  /** What the form shows. */
  label: Type.String(),
});
export type FormOption = Static<typeof FormOptionSchema>;

/**
 * The edit widget of a field. `type` is one of:
 *
 * - `text`: a text input; `multiline` for TextEdit's multi-line (and for the fallback: false).
 * - `range`: a number input (Range widget): `integer` for whole numbers; `min`, `max`,
 *   `step`, `precision` (decimals) as QGIS keeps them, null when unset.
 * - `checkbox`: `checked` / `unchecked` are the values stored (CheckBox's CheckedState /
 *   UncheckedState; for a boolean column true / false).
 * - `datetime`: `mode` date | time | datetime; `display_format` (Qt's pattern, e.g.
 *   `dd.MM.yyyy HH:mm`) shows the value; `field_format` how a text column stores it (Qt's
 *   pattern; for DATE / DATETIME columns the GeoPackage's ISO forms are stored).
 * - `value_map`: one of `options`.
 * - `value_relation`: one of `options`, the `key` / `value` columns of another layer
 *   (`layer_file`, `layer_table`), filtered by `filter` when the server could evaluate it
 *   (`filter_applied`; else every row is listed); `allow_multi` stores `{a,b}` as QGIS does.
 * - `unique_values`: the values the column holds in this version (`options`); `editable`:
 *   another value may be typed.
 * - `photo`: an ExternalResource: a file path relative to the project; `directory` is the
 *   folder (relative to the project, '' = its root) where a new photo is stored, as the
 *   mobile app stores it.
 * - `hidden`: not shown (its default still applies on insert).
 *
 * A QGIS widget outside this list is a `text` input and the field names it in `fallback`.
 */
export const WIDGET_TYPES = [
  'text',
  'range',
  'checkbox',
  'datetime',
  'value_map',
  'value_relation',
  'unique_values',
  'photo',
  'hidden',
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export interface FormWidget {
  type: WidgetType;
  /** text */
  multiline?: boolean;
  /** range */
  integer?: boolean;
  min?: number | null;
  max?: number | null;
  step?: number | null;
  precision?: number | null;
  /** checkbox */
  checked?: MapValue;
  unchecked?: MapValue;
  /** datetime */
  mode?: 'date' | 'time' | 'datetime';
  display_format?: string;
  field_format?: string | null;
  /** value_map, value_relation, unique_values */
  options?: FormOption[];
  /** More options than MAX_WIDGET_OPTIONS: the list is cut. */
  truncated?: boolean;
  /** value_relation */
  layer_file?: string | null;
  layer_table?: string | null;
  key?: string;
  value?: string;
  filter?: string | null;
  filter_applied?: boolean;
  allow_multi?: boolean;
  /** value_relation, range, datetime: an empty value is allowed by the widget. */
  allow_null?: boolean;
  /** unique_values */
  editable?: boolean;
  /** photo */
  directory?: string;
}
export const FormWidgetSchema: TUnsafe<FormWidget> = Type.Unsafe<FormWidget>({
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', enum: [...WIDGET_TYPES] } },
  additionalProperties: true,
});

/**
 * A field's default on insert. `kind`: `constant` (`value`), `now` (the current date and
 * time), `uuid` (`{xxxxxxxx-…}` as QGIS's uuid()), `username` / `user_email` (the signed-in
 * user, QGIS's @mergin_username / @mergin_user_email), `project_name` (@mergin_project_name).
 * Any other QGIS expression: no default (`expression` still tells what QGIS would do).
 */
export const DEFAULT_KINDS = [
  'constant',
  'now',
  'uuid',
  'username',
  'user_email',
  'project_name',
] as const;
export const FormDefaultSchema = Type.Object({
  kind: StringEnum(DEFAULT_KINDS),
  /** constant: the value. */
  value: Type.Optional(MapValueSchema),
});
export type FormDefault = Static<typeof FormDefaultSchema>;

export const FormConstraintsSchema = Type.Object({
  /** A value is required (QGIS's not-null constraint, or the column's NOT NULL). */
  not_null: Type.Boolean(),
  /** QGIS's unique constraint: no other feature of the layer may hold the value. */
  unique: Type.Boolean(),
  /** Most characters of a text column (its declared length), or null. */
  max_length: Type.Union([Type.Integer(), Type.Null()]),
  /**
   * A QGIS expression constraint: shown by its description, not enforced (decision record
   * 0112-forms-and-edits). Null when none.
   */
  expression: NullableString(),
  /** Its description (or the expression when QGIS has none). */
  expression_description: NullableString(),
  /** `hard`: QGIS refuses to save; `soft`: QGIS only warns. Applies to the ones above. */
  strength: StringEnum(['hard', 'soft']),
});
export type FormConstraints = Static<typeof FormConstraintsSchema>;

export const FormFieldSchema = Type.Object({
  /** The column. */
  name: Type.String(),
  /** QGIS's alias, or null. */
  alias: NullableString(),
  /** What the form shows: the alias, else the name. */
  label: Type.String(),
  type: StringEnum(MAP_COLUMN_TYPES),
  /** The declared SQL type (e.g. `TEXT(50)`, `DATETIME`). */
  sql_type: Type.String(),
  /** The form lets the user change it (QGIS's editable flag; false for the fid). */
  editable: Type.Boolean(),
  /** Not shown in the form (Hidden widget, or left out of a drag-and-drop layout). */
  hidden: Type.Boolean(),
  default: Type.Union([FormDefaultSchema, Type.Null()]),
  /** QGIS's default expression as written, or null. */
  default_expression: NullableString(),
  constraints: FormConstraintsSchema,
  widget: FormWidgetSchema,
  /** The QGIS widget shown as a plain text input instead (e.g. `Color`), or null. */
  fallback: NullableString(),
});
export type FormField = Static<typeof FormFieldSchema>;

/**
 * The drag-and-drop layout: tabs at the top level, groups inside them (or inside groups),
 * fields by name. `kind`: `tab` | `group` | `field`.
 */
export interface FormItem {
  kind: 'tab' | 'group' | 'field';
  /** tab / group: its title; field: the field's label. */
  label: string;
  /** field: the column. */
  field?: string;
  /** Whether the label is shown. */
  show_label: boolean;
  /** tab / group: columns QGIS lays the items out in. */
  columns?: number;
  /** tab / group: what it holds. */
  items?: FormItem[];
}
export const FormItemSchema: TUnsafe<FormItem> = Type.Unsafe<FormItem>({
  type: 'object',
  required: ['kind', 'label', 'show_label'],
  additionalProperties: true,
});

export const FormLayerSchema = Type.Object({
  /** The QGIS layer name, else the table name. */
  name: Type.String(),
  /** The GeoPackage (project path): the `file` of the map routes and of edits. */
  file: Type.String(),
  /** The table: the `{layer}` of the map routes and `layer` of edits. */
  table: Type.String(),
  /** The QGIS layer id, or null for a layer the QGIS project does not show. */
  qgis_layer_id: NullableString(),
  /** POINT, LINESTRING, MULTIPOLYGON, …; null for a table without geometry. */
  geometry_type: NullableString(),
  geometry_column: NullableString(),
  fid_column: Type.String(),
  /** `EPSG:4326`-style code of the layer's CRS, or null. */
  crs: NullableString(),
  /** Whether the caller may add, change and delete its features. */
  editable: Type.Boolean(),
  /**
   * Why not: `read_only` (the QGIS project marks the layer read-only), `permission` (the
   * caller may not upload to the project), `no_crs` (the server cannot reproject its
   * geometries), `no_fid` (no integer primary key); null when editable.
   */
  not_editable_reason: Type.Union([
    StringEnum(['read_only', 'permission', 'no_crs', 'no_fid']),
    Type.Null(),
  ]),
  /** `tabs` (drag-and-drop layout with tabs), `groups` (drag-and-drop without tabs), `auto`. */
  layout: StringEnum(['tabs', 'groups', 'auto']),
  /** Every attribute column (not the fid, not the geometry), in table order. */
  fields: Type.Array(FormFieldSchema),
  /** The layout's items; `auto`: one field item per visible field, in table order. */
  items: Type.Array(FormItemSchema),
});
export type FormLayer = Static<typeof FormLayerSchema>;

/** GET …/forms. */
export const ProjectFormsSchema = Type.Object({
  /** The version described (`vN`). */
  version: Type.String(),
  /** The QGIS project file read, or null. */
  project_file: NullableString(),
  project_file_problem: Type.Union([StringEnum(PROJECT_FILE_PROBLEMS), Type.Null()]),
  layers: Type.Array(FormLayerSchema),
});
export type ProjectForms = Static<typeof ProjectFormsSchema>;

export const FormsQuerySchema = Type.Object({
  version: Type.Optional(Type.String({ pattern: '^$|^v\\d+$' })),
});
export type FormsQuery = Static<typeof FormsQuerySchema>;
