/**
 * Checks an answer against its contract schema (server/src/schemas/) with TypeBox's Value,
 * for answers Fastify does not serialise itself (stored JSON text sent as it is). The
 * contract's `Type.Unsafe` fragments (nullable scalars, string enums: plain JSON-schema `type`
 * lists and `enum`s) are registered here, since Value knows only TypeBox's own kinds.
 */
import { TypeRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

interface UnsafeSchema {
  type?: string | string[];
  enum?: unknown[];
}

function jsonTypes(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number')
    return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

if (!TypeRegistry.Has('Unsafe')) {
  TypeRegistry.Set<UnsafeSchema>('Unsafe', (schema, value) => {
    if (schema.enum && !schema.enum.includes(value)) return false;
    if (schema.type === undefined) return true;
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    return jsonTypes(value).some((type) => allowed.includes(type));
  });
}

/** Where `value` breaks `schema` ('/0/changes/1/type: …'), empty when it keeps it. */
export function contractErrors(schema: TSchema, value: unknown): string[] {
  return [...Value.Errors(schema, value)].map((error) => `${error.path}: ${error.message}`);
}
