/**
 * Request validation with one Ajv per HTTP part (Fastify's own compiler, @fastify/ajv-compiler,
 * with its defaults). Query strings, path parameters and headers are text on the wire, so
 * their values are coerced to the schema's types (`?page=2` is the number 2). JSON bodies
 * carry their own types and are taken as sent: `{"name": 123}` is a 400, never the name
 * "123" (docs/decisions: "Input hardening").
 *
 * Ajv's coercion turns text past the double range (`1e309`, `-1e309`, `Infinity`) into an
 * infinite number and checks neither its type nor its bounds afterwards; the coercing parts
 * refuse such a value here as not a number of the schema's type (a 400, as for `NaN`), so no
 * route ever sees one.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

/** Ajv options every part shares (the error handler reads `data`, so verbose). */
export const AJV_CUSTOM_OPTIONS = { verbose: true, allErrors: false } as const;

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/** What Ajv compiles: a validator that may replace values (coercion) and keeps its errors. */
interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown[] | null;
  schemaEnv?: unknown;
}

/** What the pool really returns: a compiler of one route part's schema. */
type PartCompiler = (route: { schema: unknown; httpPart?: string }) => Validator;
type Pool = (externalSchemas: unknown, options: { customOptions?: object }) => PartCompiler;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null;
}

/** The first non-finite number in `value` (coerced data), as a path of keys; null if none. */
function nonFinitePath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (!isRecord(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) current = isRecord(current) ? current[key] : undefined;
  return current;
}

/** The schema's `type` at `path` (properties and array items), else 'number'. */
function typeAt(schema: unknown, path: string[]): string {
  let current = schema;
  for (const key of path) {
    if (!isRecord(current)) break;
    const properties = current.properties;
    current = isRecord(properties) && key in properties ? properties[key] : current.items;
  }
  const type = isRecord(current) ? current.type : undefined;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) return 'integer';
  return 'number';
}

/** A copy of the plain values of `value` (what was sent, before coercion replaces it). */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyOf(item)]));
}

/**
 * Wraps a coercing validator: data that validates but holds a non-finite number afterwards
 * fails with Ajv's type error, quoting the value as sent.
 */
export function refuseNonFinite(validate: Validator, schema: unknown): Validator {
  const wrapped: Validator = (data, context) => {
    const sent = copyOf(data);
    const valid = validate(data, context);
    wrapped.errors = validate.errors;
    if (valid !== true) return valid;
    const path = nonFinitePath(data);
    if (!path) return valid;
    wrapped.errors = [
      {
        keyword: 'type',
        instancePath: path.map((key) => `/${key}`).join(''),
        schemaPath: '#/type',
        params: { type: typeAt(schema, path) },
        message: `must be ${typeAt(schema, path)}`,
        data: valueAt(sent, path),
      },
    ];
    return false;
  };
  if (validate.schemaEnv !== undefined) wrapped.schemaEnv = validate.schemaEnv;
  return wrapped;
}

/** The `schemaController.compilersFactory.buildValidator` of the app. */
export function partValidators(): ValidatorFactory {
  const pool = AjvCompiler() as unknown as Pool;
  const build: Pool = (externalSchemas, options) => {
    const coercing = pool(externalSchemas, options);
    const literal = pool(externalSchemas, {
      ...options,
      customOptions: { ...options.customOptions, coerceTypes: false },
    });
    return (route) =>
      route.httpPart === 'body' ? literal(route) : refuseNonFinite(coercing(route), route.schema);
  };
  return build as unknown as ValidatorFactory;
}
