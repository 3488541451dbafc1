/** Project access requests (api-reference A.7). */
import { Type, type Static } from '@sinclair/typebox';
import { pageQueryProperties, StringEnum } from './common';

/** Query of both access request lists. */
export const AccessRequestListQuerySchema = Type.Object({
  ...pageQueryProperties,
  order_params: Type.Optional(Type.String()),
  project_name: Type.Optional(Type.String()),
});
export type AccessRequestListQuery = Static<typeof AccessRequestListQuerySchema>;

export const AccessRequestSchema = Type.Object({
  id: Type.Integer(),
  requested_by: Type.String(),
  project_name: Type.String(),
  namespace: Type.String(),
  expire: Type.String(),
  status: StringEnum(['pending', 'expired']),
});
export type AccessRequest = Static<typeof AccessRequestSchema>;

export const AccessRequestListSchema = Type.Object({
  items: Type.Array(AccessRequestSchema),
  count: Type.Integer(),
});
export type AccessRequestList = Static<typeof AccessRequestListSchema>;

/** Body of POST /app/project/access-request/accept/{id} (the service checks `permissions`). */
export const AcceptBodySchema = Type.Object({ permissions: Type.Optional(Type.Unknown()) });
export type AcceptBody = Static<typeof AcceptBodySchema>;
