/**
 * Turns every error into the reference's response shapes (see errors.ts) and keeps the
 * process alive: unexpected errors are logged with their stack and answered with a generic
 * 500 problem that reveals nothing.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sqlState } from '../db/errors';
import { NUL_REFUSED, UNPAIRED_SURROGATE_REFUSED } from './input-guard';
import {
  FormError,
  HttpProblem,
  JSON_CONTENT_TYPE,
  JsonTextError,
  PROBLEM_CONTENT_TYPE,
  problemBody,
} from '../errors';
import { isStorageFull, STORAGE_FULL_TEXT } from '../storage/blob-store';

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

/** Longest echo of a sent value in an error text (characters); longer ones end in `…`. */
export const MAX_ECHO_LENGTH = 100;

/** Longest detail of any 400 about a request (characters), the decoder's text included. */
export const MAX_DETAIL_LENGTH = 300;

/** `text`, cut to `max` characters (the last one then `…`). */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A sent value as validation texts quote it, at most MAX_ECHO_LENGTH characters: a request
 * body is never echoed back whole, however large or deep it is.
 */
function show(value: unknown): string {
  if (typeof value === 'string') return `'${capText(value, MAX_ECHO_LENGTH - 2)}'`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // Too deep to write out (a stack overflow) or otherwise unwritable.
  }
  return capText(text ?? (Array.isArray(value) ? '[…]' : '{…}'), MAX_ECHO_LENGTH);
}

/** Validation messages in the reference's (jsonschema) wording. */
export function validationDetail(errors: AjvError[], context: string | undefined): string {
  const error = errors[0];
  if (!error) return 'Invalid request';
  const { keyword, params, data } = error;
  // Body errors name the field (jsonschema's path); a query or path parameter is validated
  // on its own in the reference, so its message names nothing.
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = context === 'body' ? path : '';
  switch (keyword) {
    case 'required':
      return context === 'querystring'
        ? `Missing query parameter '${String(params.missingProperty)}'`
        : `'${String(params.missingProperty)}' is a required property`;
    case 'type':
      return `${show(data)} is not of type '${String(params.type)}'${field ? ` - '${field}'` : ''}`;
    case 'enum':
      return `${show(data)} is not one of [${(params.allowedValues as unknown[]).map(show).join(', ')}]${field ? ` - '${field}'` : ''}`;
    case 'maximum':
      return `${show(data)} is greater than the maximum of ${String(params.limit)}`;
    case 'minimum':
      return `${show(data)} is less than the minimum of ${String(params.limit)}`;
    case 'maxLength':
      return `${show(data)} is too long`;
    case 'minLength':
      return `${show(data)} is too short`;
    case 'pattern':
      return `${show(data)} does not match '${String(params.pattern)}'`;
    case 'maxItems':
      return `${show(data)} is too long`;
    default:
      return `${path || context || 'request'} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Sends JSON with exactly this Content-Type. (A Buffer payload keeps Fastify from appending
 * `; charset=utf-8`, which makes the python client ignore error bodies; this also holds on
 * paths where onSend hooks do not run, such as frameworkErrors.)
 */
export function sendJson(
  reply: FastifyReply,
  status: number,
  contentType: string,
  body: unknown,
): FastifyReply {
  return reply
    .code(status)
    .header('content-type', contentType)
    .send(Buffer.from(JSON.stringify(body)));
}

/**
 * Longest problem detail sent (characters): room for the texts that quote a whole file path
 * (4096 bytes at most), never a request body sent back.
 */
export const MAX_PROBLEM_DETAIL = 5000;

export function sendProblem(
  reply: FastifyReply,
  status: number,
  detail?: unknown,
  extra?: Record<string, unknown>,
): FastifyReply {
  const shown = typeof detail === 'string' ? capText(detail, MAX_PROBLEM_DETAIL) : detail;
  return sendJson(reply, status, PROBLEM_CONTENT_TYPE, problemBody(status, shown, extra));
}

/** Whether PostgreSQL refused JSON text for an unpaired UTF-16 surrogate (`\ud800`). */
function isSurrogateRefusal(error: unknown): boolean {
  if (sqlState(error) !== '22P02') return false;
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const detail = (e as { detail?: unknown }).detail;
    if (typeof detail === 'string' && /surrogate/i.test(detail)) return true;
  }
  return false;
}

function contentTypeOf(request: FastifyRequest): string {
  return String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
}

/** The answer to a body that is not JSON (the decoder's text quotes the body: capped). */
function decodeFailure(message: string): string {
  return capText(`Failed to decode JSON object: ${message}`, MAX_DETAIL_LENGTH);
}

export function renderError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof HttpProblem) {
    reply.headers(error.headers);
    return sendProblem(reply, error.status, error.detail, error.extra);
  }
  if (error instanceof FormError) {
    return sendJson(reply, error.status, JSON_CONTENT_TYPE, error.fields);
  }
  if (error instanceof JsonTextError) {
    return sendJson(reply, error.status, JSON_CONTENT_TYPE, error.message);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return sendProblem(
      reply,
      400,
      capText(
        validationDetail(fastifyError.validation as AjvError[], fastifyError.validationContext),
        MAX_DETAIL_LENGTH,
      ),
    );
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    switch (fastifyError.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(
          reply,
          415,
          `Invalid Content-type (${contentTypeOf(request)}), expected JSON data`,
        );
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(reply, 413);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendProblem(reply, 400, 'Failed to decode JSON object: the body is empty');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendProblem(reply, 400, decodeFailure(fastifyError.message));
      default:
        if (error instanceof SyntaxError)
          return sendProblem(reply, 400, decodeFailure(error.message));
        return sendProblem(reply, status);
    }
  }
  if (status === 503) return sendProblem(reply, 503);
  if (isStorageFull(error)) {
    request.log.error({ err: error }, 'storage full');
    return sendProblem(reply, 507, STORAGE_FULL_TEXT);
  }
  // Text the database refuses (a NUL character, SQLSTATE 22021/22P05): bad input, not a fault.
  const state = sqlState(error);
  if (state === '22021' || state === '22P05') return sendProblem(reply, 400, NUL_REFUSED);
  if (isSurrogateRefusal(error)) return sendProblem(reply, 400, UNPAIRED_SURROGATE_REFUSED);
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(reply, 500);
}

const JSON_TYPES = /^(application\/(?:problem\+)?json); charset=utf-8$/i;

export interface ErrorsPluginOptions {
  /** Path prefixes of the API: their responses default to Cache-Control: no-store. */
  apiPrefixes: readonly string[];
}

export function isApiPath(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export default fp<ErrorsPluginOptions>(
  async (app: FastifyInstance, options) => {
    app.setErrorHandler((error, request, reply) => {
      try {
        return renderError(error as Error, request, reply);
      } catch (failure) {
        // Never Fastify's own 500 text: log both, answer the generic problem.
        request.log.error({ err: failure, cause: error }, 'error handler failed');
        return sendProblem(reply, 500);
      }
    });

    app.addHook('onSend', async (request, reply, payload) => {
      // Exactly `application/json` / `application/problem+json`: the python client only
      // decodes error bodies whose Content-Type has no parameters.
      const type = reply.getHeader('content-type');
      if (typeof type === 'string') {
        const match = JSON_TYPES.exec(type);
        if (match) reply.header('content-type', match[1]);
      }
      if (
        !reply.hasHeader('cache-control') &&
        isApiPath(request.url.split('?')[0]!, options.apiPrefixes)
      ) {
        reply.header('cache-control', 'no-store');
      }
      return payload;
    });
  },
  { name: 'waymark-errors' },
);
