/**
 * What one request resolves about its caller's access, resolved once: a read-only request
 * (lib/request-context.ts `readOnly`) that reaches the same project's access through several
 * services (the map's changes: the changeset, the file at the version, the file before it)
 * reads the project and the caller's roles once and reuses the answer. Requests that change
 * something read again each time (a member removed mid-request must count), and work outside
 * a request (jobs, the command line) is not memoised.
 */
import { requestContext, type RequestContext } from '../../lib/request-context';

const memos = new WeakMap<RequestContext, Map<string, Promise<unknown>>>();

/**
 * `resolve()`'s answer for `key` within the current read-only request, resolved once (a
 * refusal too: the same question gets the same answer); outside one, `resolve()`.
 */
export function oncePerRequest<T>(key: string, resolve: () => Promise<T>): Promise<T> {
  const context = requestContext();
  if (!context?.readOnly) return resolve();
  let memo = memos.get(context);
  if (!memo) {
    memo = new Map();
    memos.set(context, memo);
  }
  let answer = memo.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = resolve();
    memo.set(key, answer);
  }
  return answer;
}
