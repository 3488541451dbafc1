/**
 * Error responses, in the reference server's three shapes (api-reference §0.2):
 * - problems: `application/problem+json` {"detail","status","title","type":"about:blank"};
 * - form errors: a plain JSON object mapping field → list of messages;
 * - the 401 of login-only routes: the JSON string "Authentication information is missing or invalid.".
 * Services throw these; the error handler in plugins/errors.ts renders them.
 */
import { STATUS_CODES } from 'node:http';

/** Standard texts for errors raised without a specific message (Werkzeug's wording). */
export const GENERIC_DETAIL: Readonly<Record<number, string>> = {
  400: 'The browser (or proxy) sent a request that this server could not understand.',
  401: "The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials required.",
  403: "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.",
  404: 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
  405: 'The method is not allowed for the requested URL.',
  409: 'A conflict happened while processing the request. The resource might have been modified while the request was being processed.',
  413: 'The data value transmitted exceeds the capacity limit.',
  415: 'The server does not support the media type transmitted in the request.',
  416: 'The server cannot provide the requested range.',
  422: 'The request was well-formed but was unable to be followed due to semantic errors.',
  429: 'This user has exceeded an allotted request count. Try again later.',
  500: 'The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.',
  503: 'The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.',
};

export const AUTH_REQUIRED_TEXT = 'Authentication information is missing or invalid.';
export const PERMISSION_DENIED_TEXT = 'Permission denied.';
export const MAINTENANCE_TEXT = 'Service unavailable due to maintenance, please try later';
export const FIELD_REQUIRED_TEXT = 'This field is required.';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const JSON_CONTENT_TYPE = 'application/json';

export interface ProblemBody {
  detail: unknown;
  status: number;
  title: string;
  type: 'about:blank';
  [extra: string]: unknown;
}

export function problemBody(
  status: number,
  detail?: unknown,
  extra: Record<string, unknown> = {},
): ProblemBody {
  return {
    ...extra,
    detail: detail ?? GENERIC_DETAIL[status] ?? STATUS_CODES[status] ?? 'Error',
    status,
    title: STATUS_CODES[status] ?? 'Error',
    type: 'about:blank',
  };
}

/** An error rendered as a problem+json response. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly detail: unknown;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    detail?: unknown,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(typeof detail === 'string' ? detail : (GENERIC_DETAIL[status] ?? `HTTP ${status}`));
    this.name = 'HttpProblem';
    this.status = status;
    this.detail = detail;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export type FieldErrors = Record<string, string[]>;

/** Form validation errors: rendered as the plain field → messages object. */
export class FormError extends Error {
  readonly status: number;
  readonly fields: FieldErrors;
  constructor(status: number, fields: FieldErrors) {
    super(Object.values(fields).flat().join(' '));
    this.name = 'FormError';
    this.status = status;
    this.fields = fields;
  }
}

/** A JSON string body (the reference's style for auth failures). */
export class JsonTextError extends Error {
  readonly status: number;
  constructor(status: number, text: string) {
    super(text);
    this.name = 'JsonTextError';
    this.status = status;
  }
}

export const notFound = (detail?: string) => new HttpProblem(404, detail);
export const forbidden = (detail?: string) => new HttpProblem(403, detail);
export const badRequest = (detail?: string) => new HttpProblem(400, detail);
export const authRequired = () => new JsonTextError(401, AUTH_REQUIRED_TEXT);
