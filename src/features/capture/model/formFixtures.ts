/** Form descriptions for the capture feature's unit tests (shapes of `@contract/forms`). */
import type { FormField, FormLayer } from '@contract/forms';

export function field(name: string, over: Partial<FormField> = {}): FormField {
  const { constraints, ...rest } = over;
  return {
    name,
    alias: null,
    label: over.alias ?? name,
    type: 'text',
    sql_type: 'TEXT',
    editable: true,
    hidden: false,
    default: null,
    default_expression: null,
    constraints: {
      not_null: false,
      unique: false,
      max_length: null,
      expression: null,
      expression_description: null,
      strength: 'hard',
      ...constraints,
    },
    widget: { type: 'text', multiline: false },
    fallback: null,
    ...rest,
  };
}

/** A point layer like the e2e fixture's: two tabs, a ValueMap, dates, a photo, hidden fields. */
export function treesLayer(): FormLayer {
  const fields: FormField[] = [
    field('name', {
      alias: 'Tree name',
      label: 'Tree name',
      constraints: {
        not_null: true,
        unique: false,
        max_length: 50,
        expression: null,
        expression_description: null,
        strength: 'hard',
      },
    }),
    field('species', {
      alias: 'Species',
      label: 'Species',
      widget: {
        type: 'value_map',
        options: [
          { value: 'oak', label: 'Oak' },
          { value: 'birch', label: 'Birch' },
        ],
      },
    }),
    field('height', {
      label: 'Height (m)',
      alias: 'Height (m)',
      type: 'double',
      sql_type: 'REAL',
      widget: { type: 'range', integer: false, min: 0, max: 120, step: 0.5, precision: 1 },
    }),
    field('healthy', {
      type: 'boolean',
      sql_type: 'BOOLEAN',
      widget: { type: 'checkbox', checked: true, unchecked: false },
    }),
    field('surveyed', {
      label: 'Surveyed at',
      alias: 'Surveyed at',
      type: 'datetime',
      sql_type: 'DATETIME',
      default: { kind: 'now' },
      default_expression: 'now()',
      widget: { type: 'datetime', mode: 'datetime', display_format: 'dd.MM.yyyy HH:mm' },
    }),
    field('photo', { widget: { type: 'photo', directory: 'photos' } }),
    field('zone', {
      type: 'integer',
      sql_type: 'INTEGER',
      widget: {
        type: 'value_relation',
        options: [
          { value: 1, label: 'North' },
          { value: 2, label: 'South' },
        ],
      },
    }),
    field('uid', {
      hidden: true,
      default: { kind: 'uuid' },
      widget: { type: 'hidden' },
    }),
    field('colour', { fallback: 'Color' }),
  ];
  return {
    name: 'Trees',
    file: 'survey.gpkg',
    table: 'trees',
    qgis_layer_id: 'trees_1',
    geometry_type: 'POINT',
    geometry_column: 'geom',
    fid_column: 'fid',
    crs: 'EPSG:4326',
    editable: true,
    not_editable_reason: null,
    layout: 'tabs',
    fields,
    items: [
      {
        kind: 'tab',
        label: 'General',
        show_label: true,
        items: [
          { kind: 'field', field: 'name', label: 'Tree name', show_label: true },
          { kind: 'field', field: 'species', label: 'Species', show_label: true },
          {
            kind: 'group',
            label: 'Measures',
            show_label: true,
            items: [{ kind: 'field', field: 'height', label: 'Height (m)', show_label: true }],
          },
          { kind: 'field', field: 'uid', label: 'uid', show_label: true },
        ],
      },
      {
        kind: 'tab',
        label: 'Survey',
        show_label: true,
        items: [
          { kind: 'field', field: 'healthy', label: 'healthy', show_label: true },
          { kind: 'field', field: 'surveyed', label: 'Surveyed at', show_label: true },
          { kind: 'field', field: 'photo', label: 'photo', show_label: true },
          { kind: 'field', field: 'zone', label: 'zone', show_label: true },
          { kind: 'field', field: 'colour', label: 'colour', show_label: true },
        ],
      },
      { kind: 'tab', label: 'Empty', show_label: true, items: [] },
    ],
  };
}
