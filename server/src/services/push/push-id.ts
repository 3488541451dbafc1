/**
 * Retry-safe finish: the optional `Mm-push-id` header (a UUID, the reference server's PR #628)
 * on `POST /v1/project/push/finish/{transaction}` and `POST /v2/projects/{id}/versions`. A
 * repeated request with the same id (same user, same target) gets the first outcome again,
 * status and body, refusals included, for PUSH_RECORD_TTL_MS; `check_only` is never cached.
 *
 * The outcome is kept in the database (push_requests), so every instance answers the same.
 * While the first request runs, its row has no status and is pinged (lock.ts's lease);
 * repeats wait for its answer. A first request that died (no ping for the lease) is taken
 * over by the next repeat, which runs the push itself. Answers of 500 and above are not
 * kept: the repeat runs again.
 *
 * Used by the routes: `beginPushId` before the service call (it may answer with a replay),
 * and `pushIdOnSend` as the route's onSend hook, which stores the reply exactly as sent.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import {
  answerPushRequest,
  claimPushRequest,
  dropPushRequest,
  findPushRequest,
  pingPushRequest,
  type PushRequestRow,
} from '../../db/queries/push-records';
import { badRequest } from '../../errors';
import { PUSH_ID_HEADER } from '../../schemas/push';
import { isUuid } from '../permissions';
import { LEASE_PING_MS, leaseStaleBefore } from './lock';

/** How long an Mm-push-id's answer (and a finished push's record) is kept: 30 days. */
export const PUSH_RECORD_TTL_MS = 30 * 24 * 3600 * 1000;
export const INVALID_PUSH_ID = 'Mm-push-id must be a UUID';
export const PUSH_ID_REUSED = 'This Mm-push-id was used for another request';
/** How often a repeat looks for the first request's answer. */
const WAIT_POLL_MS = 50;

interface Running {
  ctx: AppContext;
  userId: number;
  pushId: string;
  ping: NodeJS.Timeout;
}

const RUNNING = Symbol('pushId');
type Tracked = FastifyRequest & { [RUNNING]?: Running };

/** Push ids whose first request runs in this process (user id:push id). */
const running = new Set<string>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request's Mm-push-id, lower case; null when absent; 400 when not a UUID. */
function pushIdOf(request: FastifyRequest): string | null {
  const value = request.headers[PUSH_ID_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !isUuid(value.trim())) throw badRequest(INVALID_PUSH_ID);
  return value.trim().toLowerCase();
}

/**
 * Before the push runs: null when it should run (no id, or this request is the first with
 * it); else the stored answer of the first request, to send again (replayPushId).
 */
export async function beginPushId(
  ctx: AppContext,
  request: FastifyRequest,
  userId: number,
  target: string,
): Promise<PushRequestRow | null> {
  const pushId = pushIdOf(request);
  if (!pushId) return null;
  const key = `${userId}:${pushId}`;
  const db = ctx.database.db;
  for (;;) {
    if (!running.has(key)) {
      // Reserved before the claim's await, so no other request of this process claims too.
      running.add(key);
      const claimed = await claimPushRequest(
        db,
        { userId, pushId, target, at: ctx.now() },
        leaseStaleBefore(ctx),
      ).catch((error: unknown) => {
        running.delete(key);
        throw error;
      });
      if (!claimed) running.delete(key);
      else {
        const ping = setInterval(() => {
          pingPushRequest(db, userId, pushId, ctx.now()).catch(() => {});
        }, LEASE_PING_MS);
        ping.unref();
        (request as Tracked)[RUNNING] = { ctx, userId, pushId, ping };
        return null;
      }
    }
    const row = await findPushRequest(db, userId, pushId);
    if (row && row.target !== target) throw badRequest(PUSH_ID_REUSED);
    if (row && row.status !== null) return row;
    // The first request still runs (or its row was just dropped): look again shortly.
    await sleep(WAIT_POLL_MS);
  }
}

/** Sends the first request's answer again. */
export function replayPushId(reply: FastifyReply, row: PushRequestRow): FastifyReply {
  reply.code(row.status ?? 200);
  if (row.contentType) reply.header('content-type', row.contentType);
  return row.body ? reply.send(row.body) : reply.send();
}

async function settle(request: Tracked, reply: FastifyReply, payload: unknown): Promise<void> {
  const state = request[RUNNING];
  if (!state) return;
  delete request[RUNNING];
  clearInterval(state.ping);
  const db = state.ctx.database.db;
  try {
    if (
      reply.statusCode >= 500 ||
      (payload !== null &&
        payload !== undefined &&
        typeof payload !== 'string' &&
        !Buffer.isBuffer(payload))
    ) {
      await dropPushRequest(db, state.userId, state.pushId);
      return;
    }
    const contentType = reply.getHeader('content-type');
    await answerPushRequest(db, state.userId, state.pushId, {
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : null,
      body: payload === null || payload === undefined ? '' : String(payload),
    });
  } finally {
    running.delete(`${state.userId}:${state.pushId}`);
  }
}

/** The route's onSend hook: keeps the answer of a request that ran with an Mm-push-id. */
export async function pushIdOnSend(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  await settle(request as Tracked, reply, payload);
  return payload;
}

/** The route's onResponse hook: a request that ended without onSend forgets its claim. */
export async function pushIdOnResponse(request: FastifyRequest): Promise<void> {
  const state = (request as Tracked)[RUNNING];
  if (!state) return;
  delete (request as Tracked)[RUNNING];
  clearInterval(state.ping);
  running.delete(`${state.userId}:${state.pushId}`);
  await dropPushRequest(state.ctx.database.db, state.userId, state.pushId);
}
