/**
 * The form model of a layer (issue 34), from the server's form description (`@contract/forms`,
 * read from the QGIS project): the values a new feature starts with (defaults), how a value
 * is kept per column type, and which fields break a constraint and why. Pure; the form
 * (components/FeatureForm.tsx) renders it.
 *
 * Values are kept as they are stored and sent (`EditValue`): numbers for integer and double
 * columns, true/false for boolean ones, `YYYY-MM-DD` for DATE, ISO 8601 UTC for DATETIME, text
 * otherwise (a DateTime widget on a text column writes its `field_format`); an empty input is
 * null.
 */
import type { FormDefault, FormField, FormLayer } from '@contract/forms';
import type { EditValue } from '@/db/editQueue';
import { formatQt, parseQt } from './qtDate';

export type FormValues = Record<string, EditValue>;

/** What a default may read: the moment, the signed-in user, the project. */
export interface DefaultContext {
  now: Date;
  uuid: () => string;
  username: string;
  email: string;
  projectName: string;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A local date as a DATE column holds it. */
export const isoDate = (date: Date) =>
  `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A local time as `HH:mm:ss`. */
export const isoTime = (date: Date) =>
  `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;

/** A moment as a DATETIME column holds it (GeoPackage: ISO 8601 in UTC). */
export const isoDateTime = (date: Date) => date.toISOString();

/** A moment written as the field keeps it (see the module's comment). */
export function dateValue(field: FormField, date: Date): EditValue {
  if (field.type === 'date') return isoDate(date);
  if (field.type === 'datetime') return isoDateTime(date);
  const format = field.widget.type === 'datetime' ? field.widget.field_format : null;
  if (format) return formatQt(date, format);
  const mode = field.widget.type === 'datetime' ? field.widget.mode : 'datetime';
  if (mode === 'date') return isoDate(date);
  if (mode === 'time') return isoTime(date);
  return isoDateTime(date);
}

/** The moment a kept value means (local), or null when it is empty or cannot be read. */
export function dateOf(field: FormField, value: EditValue): Date | null {
  if (value === null || value === '' || typeof value === 'boolean') return null;
  const text = String(value);
  const format = field.widget.type === 'datetime' ? field.widget.field_format : null;
  if (field.type === 'text' && format) return parseQt(text, format);
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (dateOnly) return new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
  const timeOnly = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (timeOnly) {
    return new Date(2000, 0, 1, Number(timeOnly[1]), Number(timeOnly[2]), Number(timeOnly[3] ?? 0));
  }
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** A value for a text the user typed, as the column keeps it (numbers parsed; '' is null). */
export function valueOfInput(field: FormField, input: string): EditValue {
  if (input === '') return null;
  if (field.type === 'integer' || field.type === 'double') {
    const number = Number(input.replace(',', '.'));
    return Number.isFinite(number) && input.trim() !== '' ? number : input;
  }
  return input;
}

/** A constant default as the column keeps it. */
function constantValue(field: FormField, value: EditValue | undefined): EditValue {
  if (value === undefined || value === null) return null;
  if (field.type === 'integer' || field.type === 'double') {
    const number = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(number) ? number : null;
  }
  if (field.type === 'boolean') {
    if (typeof value === 'boolean') return value;
    return /^(true|1|yes)$/i.test(String(value));
  }
  return typeof value === 'string' ? value : String(value);
}

/** A field's default for a new feature (null when it has none the browser can give). */
export function defaultValue(field: FormField, context: DefaultContext): EditValue {
  const given: FormDefault | null = field.default;
  if (!given) return null;
  switch (given.kind) {
    case 'constant':
      return constantValue(field, given.value);
    case 'now':
      return dateValue(field, context.now);
    case 'uuid':
      return `{${context.uuid()}}`;
    case 'username':
      return context.username;
    case 'user_email':
      return context.email;
    case 'project_name':
      return context.projectName;
  }
}

/** Every field's starting value for a new feature. */
export function insertValues(layer: FormLayer, context: DefaultContext): FormValues {
  return Object.fromEntries(
    layer.fields.map((field) => [field.name, defaultValue(field, context)]),
  );
}

/** The fields a save changes (compared with what the form started with). */
export function changedValues(
  layer: FormLayer,
  initial: FormValues,
  values: FormValues,
): { values: FormValues; before: FormValues } {
  const changed: FormValues = {};
  const before: FormValues = {};
  for (const field of layer.fields) {
    const now = values[field.name] ?? null;
    const was = initial[field.name] ?? null;
    if (now !== was) {
      changed[field.name] = now;
      before[field.name] = was;
    }
  }
  return { values: changed, before };
}

/** Why a value breaks a constraint: shown next to the field. */
export interface FieldIssue {
  message: string;
  /** A hard constraint blocks 'Save'; a soft one (QGIS's 'soft' strength) only warns. */
  blocking: boolean;
}

export const REQUIRED = 'A value is required';
export const WHOLE_NUMBER = 'Enter a whole number';
export const NUMBER = 'Enter a number';
export const NOT_UNIQUE = 'Another feature of this layer already has this value';
export const NOT_A_DATE = 'Enter a date';
export const atLeast = (min: number) => `At least ${min}`;
export const atMost = (max: number) => `At most ${max}`;
export const tooLong = (max: number, length: number) => `At most ${max} characters (now ${length})`;
export const notAnOption = 'Choose one of the listed values';

const isEmpty = (value: EditValue | undefined) =>
  value === undefined || value === null || value === '';

/** The limits of an integer column the database can hold. */
const INTEGER_RANGE = Number.MAX_SAFE_INTEGER;

/** What is wrong with one field's value (null when nothing). */
export function fieldIssue(
  field: FormField,
  value: EditValue | undefined,
  isTaken?: (value: EditValue) => boolean,
): FieldIssue | null {
  const { constraints, widget } = field;
  const blocking = constraints.strength === 'hard';
  if (isEmpty(value)) {
    // A column declared NOT NULL blocks whatever QGIS's strength says: the database refuses.
    return constraints.not_null ? { message: REQUIRED, blocking } : null;
  }
  if (field.type === 'integer' || field.type === 'double') {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return { message: field.type === 'integer' ? WHOLE_NUMBER : NUMBER, blocking: true };
    }
    if (
      (field.type === 'integer' || widget.integer === true) &&
      (!Number.isInteger(value) || Math.abs(value) > INTEGER_RANGE)
    ) {
      return { message: WHOLE_NUMBER, blocking: true };
    }
    if (widget.type === 'range') {
      if (typeof widget.min === 'number' && value < widget.min) {
        return { message: atLeast(widget.min), blocking: true };
      }
      if (typeof widget.max === 'number' && value > widget.max) {
        return { message: atMost(widget.max), blocking: true };
      }
    }
  }
  if (
    (field.type === 'date' || field.type === 'datetime') &&
    dateOf(field, value ?? null) === null
  ) {
    return { message: NOT_A_DATE, blocking: true };
  }
  if (typeof value === 'string' && constraints.max_length !== null) {
    const length = [...value].length;
    if (length > constraints.max_length) {
      return { message: tooLong(constraints.max_length, length), blocking: true };
    }
  }
  if (
    widget.type === 'value_map' &&
    widget.options &&
    !widget.options.some((option) => option.value === value)
  ) {
    return { message: notAnOption, blocking: true };
  }
  if (constraints.unique && isTaken?.(value ?? null)) {
    return { message: NOT_UNIQUE, blocking };
  }
  return null;
}

/**
 * The issues of a form's values, by field name: fields the user can see and change only
 * (a hidden or read-only field's value is the server's to refuse).
 */
export function formIssues(
  layer: FormLayer,
  values: FormValues,
  isTaken?: (field: FormField, value: EditValue) => boolean,
): Record<string, FieldIssue> {
  const issues: Record<string, FieldIssue> = {};
  for (const field of layer.fields) {
    if (field.hidden || !field.editable || field.widget.type === 'hidden') continue;
    const issue = fieldIssue(
      field,
      values[field.name],
      isTaken ? (value) => isTaken(field, value) : undefined,
    );
    if (issue) issues[field.name] = issue;
  }
  return issues;
}

/** Whether the issues keep the form from being saved. */
export const blocksSave = (issues: Record<string, FieldIssue>) =>
  Object.values(issues).some((issue) => issue.blocking);

/** The text of a value as the feature panel shows it, per widget (labels for options). */
export function displayText(field: FormField, value: EditValue | undefined): string {
  if (value === undefined || value === null) return '';
  const { widget } = field;
  if (widget.options) {
    if (widget.type === 'value_relation' && widget.allow_multi && typeof value === 'string') {
      return multiValues(value)
        .map((one) => widget.options?.find((o) => String(o.value) === one)?.label ?? one)
        .join(', ');
    }
    const option = widget.options.find(
      (o) => o.value === value || String(o.value) === String(value),
    );
    if (option) return option.label;
  }
  if (widget.type === 'checkbox') {
    if (value === widget.checked) return 'Yes';
    if (value === widget.unchecked) return 'No';
  }
  if (widget.type === 'datetime' && widget.display_format) {
    const date = dateOf(field, value);
    if (date) return formatQt(date, widget.display_format);
  }
  return String(value);
}

/** QGIS's `{a,b,"c d"}` of a ValueRelation allowing several values, as a list. */
export function multiValues(value: string): string[] {
  const inner = /^\{(.*)\}$/.exec(value.trim())?.[1];
  if (inner === undefined) return value === '' ? [] : [value];
  if (inner === '') return [];
  const out: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|([^,]+)/g;
  for (const match of inner.matchAll(pattern)) {
    out.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? '').trim());
  }
  return out;
}

/** A list as QGIS keeps several ValueRelation values: `{a,b,"c d"}`. */
export function multiValueText(values: readonly string[]): string {
  const quoted = values.map((value) =>
    /^[\w.-]+$/.test(value) ? value : `"${value.replace(/(["\\])/g, '\\$1')}"`,
  );
  return `{${quoted.join(',')}}`;
}
