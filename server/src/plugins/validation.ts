/**
 * Request validation with one Ajv per HTTP part (Fastify's own compiler, @fastify/ajv-compiler,
 * with its defaults). Query strings, path parameters and headers are text on the wire, so
 * their values are coerced to the schema's types (`?page=2` is the number 2). JSON bodies
 * carry their own types and are taken as sent: `{"name": 123}` is a 400, never the name
 * "123" (docs/decisions: "Input hardening").
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

/** Ajv options every part shares (the error handler reads `data`, so verbose). */
export const AJV_CUSTOM_OPTIONS = { verbose: true, allErrors: false } as const;

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/** What the pool really returns: a compiler of one route part's schema. */
type PartCompiler = (route: { schema: unknown; httpPart?: string }) => unknown;
type Pool = (externalSchemas: unknown, options: { customOptions?: object }) => PartCompiler;

/** The `schemaController.compilersFactory.buildValidator` of the app. */
export function partValidators(): ValidatorFactory {
  const pool = AjvCompiler() as unknown as Pool;
  const build: Pool = (externalSchemas, options) => {
    const coercing = pool(externalSchemas, options);
    const literal = pool(externalSchemas, {
      ...options,
      customOptions: { ...options.customOptions, coerceTypes: false },
    });
    return (route) => (route.httpPart === 'body' ? literal : coercing)(route);
  };
  return build as unknown as ValidatorFactory;
}
