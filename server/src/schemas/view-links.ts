/**
 * Read-only view links (issue 32): a project's owner makes a link with an expiry that shows
 * the project's map and attribute tables (not its files, not its members) to whoever holds
 * it, until it expires or is revoked; each opening is logged.
 *
 * Owners (owner's rights on the project):
 * - GET    /app/project/view-links/{namespace}/{name}            → ViewLinkList
 * - POST   /app/project/view-links/{namespace}/{name}            CreateViewLink → 201 ViewLink
 * - DELETE /app/project/view-links/{namespace}/{name}/{id}       → 204 (revoked; again: 204)
 * - GET    /app/project/view-links/{namespace}/{name}/{id}/uses  → ViewLinkUses (newest first)
 * Anyone holding the link:
 * - GET    /app/view/{token} → ViewLinkOpen, the use logged; 404 VIEW_LINK_NOT_FOUND for an
 *   unknown, expired or revoked link alike.
 * The map routes (schemas/map.ts: layers, tiles, features) take the token as `link` and
 * answer as to a reader of the project, with the same 404 once it has ended.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NamespaceNameParamsSchema, NullableString, StringEnum } from './common';

/** Longest a link may live: a year. */
export const MAX_VIEW_LINK_DAYS = 365;
export const VIEW_LINK_NOT_FOUND = 'This view link does not exist, has expired or was revoked';
export const VIEW_LINK_EXPIRY = `The expiry must be in the future, at most ${MAX_VIEW_LINK_DAYS} days ahead`;

/** `<id>.<43 characters of base64url>`. */
export const ViewLinkTokenSchema = Type.String({ pattern: '^\\d{1,9}\\.[A-Za-z0-9_-]{43}$' });

export const ViewLinkStatusSchema = StringEnum(['active', 'expired', 'revoked']);

export const ViewLinkSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  /** The token of `/view/{token}` (the link is the app's address plus that path). */
  token: Type.String(),
  status: ViewLinkStatusSchema,
  created_at: Type.String({ format: 'date-time' }),
  /** Username of the owner who made it; null when that account is gone. */
  created_by: NullableString(),
  expires_at: Type.String({ format: 'date-time' }),
  revoked_at: NullableString(),
  uses: Type.Integer(),
  last_used_at: NullableString(),
});
export type ViewLink = Static<typeof ViewLinkSchema>;

export const ViewLinkListSchema = Type.Object({ links: Type.Array(ViewLinkSchema) });
export type ViewLinkList = Static<typeof ViewLinkListSchema>;

export const CreateViewLinkSchema = Type.Object({
  /** When the link ends (ISO 8601 date-time), within MAX_VIEW_LINK_DAYS. */
  expires_at: Type.String({ format: 'date-time' }),
  label: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CreateViewLink = Static<typeof CreateViewLinkSchema>;

export const ViewLinkParamsSchema = Type.Object({
  ...NamespaceNameParamsSchema.properties,
  id: Type.String({ pattern: '^\\d{1,9}$' }),
});
export type ViewLinkParams = Static<typeof ViewLinkParamsSchema>;

export const ViewLinkUsesSchema = Type.Object({
  uses: Type.Array(
    Type.Object({
      used_at: Type.String({ format: 'date-time' }),
      /** The signed-in user who opened it, or null (anonymous). */
      username: NullableString(),
      ip: NullableString(),
      user_agent: NullableString(),
    }),
  ),
});
export type ViewLinkUses = Static<typeof ViewLinkUsesSchema>;

export const ViewLinkOpenParamsSchema = Type.Object({ token: ViewLinkTokenSchema });
export type ViewLinkOpenParams = Static<typeof ViewLinkOpenParamsSchema>;

/** What the page of a view link needs. */
export const ViewLinkOpenSchema = Type.Object({
  namespace: Type.String(),
  name: Type.String(),
  label: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  /** The latest version (`vN`); the map routes take any version up to it. */
  latest_version: Type.String(),
  /** The GeoPackage and SQLite files of the latest version (project paths). */
  map_files: Type.Array(Type.String()),
});
export type ViewLinkOpen = Static<typeof ViewLinkOpenSchema>;
