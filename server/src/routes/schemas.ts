/**
 * The contract's shared fragments (server/src/schemas/common.ts) under the names the push
 * routes (routes/push.ts, push-v2.ts) import. New code imports server/src/schemas/ directly.
 */
export {
  AuthErrorSchema as authErrorSchema,
  CountMapSchema as countMap,
  EmptySchema as emptySchema,
  IdParamsSchema as idParams,
  ProblemSchema as problemSchema,
  StringListSchema as stringList,
} from '../schemas/common';
export { PushFileListSchema as pushFileList } from '../schemas/push';
