/**
 * The app's API client instance, the transport under it (also used by the upload worker) and
 * their types. Features import from here, never from fetch.
 */
import { createApiClient } from './client';

export const api = createApiClient();

export {
  createApiClient,
  buildUrl,
  MAINTENANCE_EXEMPT_PATHS,
  type ApiClient,
  type ApiClientConfig,
  type HttpMethod,
  type QueryParams,
  type RequestOptions,
  type SessionEndedHandler,
} from './client';
export {
  ApiError,
  MAINTENANCE_MESSAGE,
  detailOf,
  errorMessage,
  isApiError,
  toFormErrors,
  type FormErrors,
} from './errors';
export {
  NetworkError,
  createTransport,
  type Transport,
  type TransportAnswer,
  type TransportConfig,
  type TransportRequest,
} from './transport';
export { DEFAULT_RETRIES, MAX_RETRY_DELAY_MS, RETRYABLE_STATUSES, type RetryPolicy } from './retry';
