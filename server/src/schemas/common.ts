/**
 * Wire fragments every resource shares: error bodies, path parameters, paging, roles.
 * Schemas here and in the other files of this folder are what Fastify validates requests
 * with and serialises answers with (keys a schema leaves out are dropped from the answer);
 * the web app imports their types (`import type … from '@contract/common'`).
 */
import {
  Type,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';
import { PROJECT_ROLES, WORKSPACE_ROLES, type ProjectRole, type WorkspaceRole } from './roles';

/**
 * A nullable scalar as one JSON-schema type list (`type: [T, 'null']`), which Ajv and
 * fast-json-stringify read directly (an `anyOf` would make the serialiser try each branch).
 */
export const NullableString = () => Type.Unsafe<string | null>({ type: ['string', 'null'] });
export const NullableInteger = () => Type.Unsafe<number | null>({ type: ['integer', 'null'] });

/** An object or null (`type: ['object', 'null']`), with the object's properties. */
export function NullableObject<T extends TProperties>(
  schema: TObject<T>,
): TUnsafe<Static<TObject<T>> | null> {
  return Type.Unsafe<Static<TObject<T>> | null>({
    type: ['object', 'null'],
    properties: schema.properties,
    ...(schema.required ? { required: schema.required } : {}),
  });
}

/** One of a fixed list of strings, or null. */
export function NullableStringEnum<const T extends readonly string[]>(
  values: T,
): TUnsafe<T[number] | null> {
  return Type.Unsafe<T[number] | null>({ type: ['string', 'null'], enum: [...values, null] });
}

/** `{ [key: string]: T }` as `additionalProperties` (what the reference's answers are). */
export function StringMap<T extends TSchema>(value: T): TUnsafe<Record<string, Static<T>>> {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value });
}

/** One of a fixed list of strings. */
export function StringEnum<const T extends readonly string[]>(values: T): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

/** Problem body (api-reference §0.2). */
export const ProblemSchema = Type.Object({
  detail: Type.Optional(Type.Unknown()),
  status: Type.Optional(Type.Integer()),
  title: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
});
export type Problem = Static<typeof ProblemSchema>;

/** The Problem answers of a route, by status: `response: { 200: X, ...problems(403, 404) }`. */
export function problems<const C extends readonly number[]>(
  ...codes: C
): Record<C[number], typeof ProblemSchema> {
  return Object.fromEntries(codes.map((code) => [code, ProblemSchema])) as Record<
    C[number],
    typeof ProblemSchema
  >;
}

/** The reference's 401 body: a JSON string. */
export const AuthErrorSchema = Type.String();
export type AuthError = Static<typeof AuthErrorSchema>;

/** Field → messages. */
export const FormErrorSchema = StringMap(Type.Array(Type.String()));
export type FormErrors = Static<typeof FormErrorSchema>;

/** A 400/404 that is either form errors or a problem. */
export const FormOrProblemSchema = Type.Union([FormErrorSchema, ProblemSchema]);
export type FormOrProblem = Static<typeof FormOrProblemSchema>;

/** An answer without a body (`reply.send()`). */
export const EmptySchema = Type.Unsafe<undefined>({ type: 'null' });

export const StringListSchema = Type.Array(Type.String());
export type StringList = Static<typeof StringListSchema>;
export const IntegerListSchema = Type.Array(Type.Integer());
export type IntegerList = Static<typeof IntegerListSchema>;

/** Key → count (e.g. chunk id → how many times the server wrote it). */
export const CountMapSchema = StringMap(Type.Integer());
export type CountMap = Static<typeof CountMapSchema>;

/** Path parameters of routes addressed by an id (`/…/:id`). */
export const IdParamsSchema = Type.Object({ id: Type.String() });
export type IdParams = Static<typeof IdParamsSchema>;

/** Path parameters `/:namespace/:name`. */
export const NamespaceNameParamsSchema = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
});
export type NamespaceNameParams = Static<typeof NamespaceNameParamsSchema>;

/** Path parameters `/:namespace/:project`. */
export const NamespaceProjectParamsSchema = Type.Object({
  namespace: Type.String(),
  project: Type.String(),
});
export type NamespaceProjectParams = Static<typeof NamespaceProjectParamsSchema>;

export const NamespaceParamsSchema = Type.Object({ namespace: Type.String() });
export type NamespaceParams = Static<typeof NamespaceParamsSchema>;

/** The roles as wire enums; the roles and their ranks are declared in roles.ts. */
export const WorkspaceRoleSchema = StringEnum(WORKSPACE_ROLES);
export const ProjectRoleSchema = StringEnum(PROJECT_ROLES);
export { PROJECT_ROLES, WORKSPACE_ROLES, type ProjectRole, type WorkspaceRole };

/** `page` (≥ 1) and `per_page` (≤ 100), both required (api-reference §6). */
export const pageQueryProperties = {
  page: Type.Integer({ minimum: 1 }),
  per_page: Type.Integer({ maximum: 100 }),
};

/** `vN` (or empty: the latest), as the reference's schema allows. */
export const VersionParamSchema = Type.String({ pattern: '^$|^v\\d+$' });
export type VersionParam = Static<typeof VersionParamSchema>;

/** Version names in paths: `vN` (anything else is a 400, as in the reference). */
export const VersionNameSchema = Type.String({ pattern: '^v\\d+$' });
export type VersionName = Static<typeof VersionNameSchema>;
