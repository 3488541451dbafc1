/** Instance information: /app/init, /ping, /config, /alive (api-reference A.1, A.10). */
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, StringListSchema } from './common';
import { BasemapSchema } from './map';
import { OidcButtonSchema } from './oidc';

/** GET /app/init (the CSRF token comes in the X-CSRF-Token header). */
export const InitSchema = Type.Object({
  authenticated: Type.Boolean(),
  superuser: Type.Boolean(),
});
export type Init = Static<typeof InitSchema>;

/** GET /ping. */
export const PingSchema = Type.Object({
  service: Type.String(),
  status: Type.String(),
  base_url: Type.String(),
  endpoints: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
  version: Type.String(),
  blacklist_dirs: StringListSchema,
  blacklist_files: StringListSchema,
  maintenance: Type.Boolean(),
  subscriptions_enabled: Type.Boolean(),
});
export type Ping = Static<typeof PingSchema>;

/** GET /config. */
export const InstanceConfigSchema = Type.Object({
  docs_url: Type.String(),
  /** The help menu's Community chat (COMMUNITY_URL); absent when not configured. */
  community_url: Type.Optional(Type.String()),
  server_type: Type.String(),
  collect_statistics: Type.Boolean(),
  user_self_registration: Type.Boolean(),
  global_admin: Type.Boolean(),
  global_read: Type.Boolean(),
  global_write: Type.Boolean(),
  enable_superadmin_assignment: Type.Boolean(),
  diagnostic_logs_url: Type.String(),
  v2_push_enabled: Type.Boolean(),
  v2_pull_enabled: Type.Boolean(),
  /** Signed-in users may create workspaces (WORKSPACE_CREATION; POST /v1/workspace). */
  workspace_creation: Type.Boolean(),
  blacklist_dirs: StringListSchema,
  blacklist_files: StringListSchema,
  version: Type.String(),
  /** The parts of `version` (absent when it is not `major.minor[.fix]`). */
  major: Type.Optional(Type.Integer()),
  minor: Type.Optional(Type.Integer()),
  fix: Type.Optional(NullableInteger()),
  server_configured: Type.Boolean(),
  build_hash: Type.String(),
  /** The map's basemap (BASEMAP_URL, BASEMAP_ATTRIBUTION); absent when none is configured. */
  basemap: Type.Optional(BasemapSchema),
  /** The OpenID Connect provider's sign-in button (OIDC_*); absent when none is configured. */
  oidc: Type.Optional(OidcButtonSchema),
});
export type InstanceConfig = Static<typeof InstanceConfigSchema>;

/** GET and POST /alive (the load balancer's health check). */
export const AliveSchema = Type.Object({
  processing_time_ms: Type.Number(),
  maintenance: Type.Boolean(),
});
export type Alive = Static<typeof AliveSchema>;
