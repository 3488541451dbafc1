/** The app's API client instance and its types. Features import from here, never from fetch. */
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
  CSRF_EXPIRED_DETAIL,
  MAINTENANCE_MESSAGE,
  detailOf,
  errorMessage,
  isApiError,
  toFormErrors,
  type FormErrors,
} from './errors';
export { DEFAULT_RETRIES, MAX_RETRY_DELAY_MS, RETRYABLE_STATUSES, type RetryPolicy } from './retry';
