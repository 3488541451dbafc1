/** POST /v2/diagnostic-logs?app=&username= (client-compat §8). */
import { Type, type Static } from '@sinclair/typebox';

export const LogQuerySchema = Type.Object({
  app: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
});
export type LogQuery = Static<typeof LogQuerySchema>;

export const SavedLogSchema = Type.Object({ file: Type.String() });
export type SavedLog = Static<typeof SavedLogSchema>;
