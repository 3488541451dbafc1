/** Errors produced by the API client, and how forms read server field errors from them. */
import type { FormErrors } from '@contract/common';
import { CSRF_REFUSALS } from '@contract/protocol';

const csrfRefusals = new Set<string>(Object.values(CSRF_REFUSALS));

/**
 * Whether a 400's detail refuses the request's CSRF token: the expired one of spec 000 §8, or
 * a missing, unknown or foreign one (the secret cookie changed), all mended by a fresh token.
 */
export function isCsrfRefusal(detail: string | undefined): boolean {
  return detail !== undefined && csrfRefusals.has(detail);
}

/** Message of the local 503 rejection of writes while the server is in maintenance (spec 000 §8). */
export const MAINTENANCE_MESSAGE =
  'The service is currently in read-only mode for maintenance. Upload and update functions are not available at this time. Please try again later.';

/** Field name → messages, as the server sends form validation errors (`{"email": ["..."]}`). */
export type { FormErrors };

export interface ApiErrorInit {
  status: number;
  data?: unknown;
  message: string;
  /** The request never got an HTTP response (offline, DNS, connection reset...). */
  isNetworkError?: boolean;
  /** Rejected on the client because the server is read-only for maintenance. */
  isMaintenance?: boolean;
  cause?: unknown;
}

/**
 * A failed API call. `status` is the HTTP status (0 for network errors), `data` the parsed
 * response body, `message` the server's `detail` text or the caller's fallback message.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly data: unknown;
  readonly isNetworkError: boolean;
  readonly isMaintenance: boolean;
  /** Per-field errors when the body is a form-error object (spec 000 §5), else null. */
  readonly formErrors: FormErrors | null;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.data = init.data;
    this.isNetworkError = init.isNetworkError ?? false;
    this.isMaintenance = init.isMaintenance ?? false;
    this.formErrors = toFormErrors(init.data);
  }

  /** The local refusal of a write while the server is read-only for maintenance. */
  static maintenance(): ApiError {
    return new ApiError({
      status: 503,
      data: { detail: MAINTENANCE_MESSAGE, status: 503 },
      message: MAINTENANCE_MESSAGE,
      isMaintenance: true,
    });
  }

  /** The first message for `field`, for showing under a form input. */
  fieldError(field: string): string | undefined {
    return this.formErrors?.[field]?.[0];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `detail` text of an error body, when it is a string. */
export function detailOf(data: unknown): string | undefined {
  if (isPlainObject(data) && typeof data.detail === 'string' && data.detail !== '') {
    return data.detail;
  }
  return undefined;
}

/**
 * Spec 000 §5: a response that is an object without a `detail` field or a numeric `status`
 * is shown as per-field errors. Values may be a message or a list of messages.
 */
export function toFormErrors(data: unknown): FormErrors | null {
  if (!isPlainObject(data)) return null;
  if ('detail' in data || typeof data.status === 'number') return null;
  const result: FormErrors = {};
  for (const [field, value] of Object.entries(data)) {
    const messages = (Array.isArray(value) ? value : [value]).filter(
      (item): item is string => typeof item === 'string' && item !== '',
    );
    if (messages.length > 0) result[field] = messages;
  }
  return Object.keys(result).length > 0 ? result : null;
}

/** Text for a toast: the error's message, or `fallback` for anything that is not an Error. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
