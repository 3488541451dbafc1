/**
 * Turns every error into the reference's response shapes (see errors.ts) and keeps the
 * process alive: unexpected errors are logged with their stack and answered with a generic
 * 500 problem that reveals nothing.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sqlState } from '../db/errors';
import { NUL_REFUSED } from './input-guard';
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

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
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

export function sendProblem(
  reply: FastifyReply,
  status: number,
  detail?: unknown,
  extra?: Record<string, unknown>,
): FastifyReply {
  return sendJson(reply, status, PROBLEM_CONTENT_TYPE, problemBody(status, detail, extra));
}

function contentTypeOf(request: FastifyRequest): string {
  return String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
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
      validationDetail(fastifyError.validation as AjvError[], fastifyError.validationContext),
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
        return sendProblem(reply, 400, `Failed to decode JSON object: ${fastifyError.message}`);
      default:
        if (error instanceof SyntaxError) {
          return sendProblem(reply, 400, `Failed to decode JSON object: ${error.message}`);
        }
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
    app.setErrorHandler((error, request, reply) => renderError(error as Error, request, reply));

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
