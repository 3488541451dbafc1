/**
 * Search (query string) handling. Every search value of this app is text or a comma-separated
 * list (spec: "tags are read from the query as a comma-separated list"), so the router reads and
 * writes plain strings instead of TanStack's JSON encoding: `?redirect=/projects&tags=a,b`.
 */

export type RawSearch = Record<string, string | string[]>;

export function parseSearch(searchStr: string): RawSearch {
  const result: RawSearch = {};
  for (const [key, value] of new URLSearchParams(searchStr)) {
    const previous = result[key];
    if (previous === undefined) result[key] = value;
    else result[key] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return result;
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = value.filter((item) => item !== undefined && item !== null).map(String);
      if (items.length > 0) params.set(key, items.join(','));
    } else if (typeof value === 'object') {
      params.set(key, JSON.stringify(value));
    } else {
      params.set(key, String(value));
    }
  }
  // '/' and ',' are legal in a query; leaving them readable keeps shared links legible.
  const text = params.toString().replace(/%2F/gi, '/').replace(/%2C/gi, ',');
  return text ? `?${text}` : '';
}

/** A non-empty string value (the first one if the key was repeated). */
export function searchString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number' || typeof first === 'boolean') return String(first);
  if (typeof first === 'string' && first !== '') return first;
  return undefined;
}

/** A comma-separated list (also accepts repeated keys and arrays); empty items are dropped. */
export function searchList(value: unknown): string[] | undefined {
  const items = (Array.isArray(value) ? value : [value])
    .flatMap((item) => (typeof item === 'string' ? item.split(',') : []))
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

/** Drops undefined values so optional search keys stay absent. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export interface LoginSearch {
  redirect?: string;
  /** Why a single sign-on ended here (server/src/schemas/oidc-errors.ts OIDC_ERROR_MESSAGES). */
  sso_error?: string;
}
export const validateLoginSearch = (search: Record<string, unknown>): LoginSearch =>
  compact({ redirect: searchString(search.redirect), sso_error: searchString(search.sso_error) });

export interface ProjectListSearch {
  tags?: string[];
}
export const validateProjectListSearch = (search: Record<string, unknown>): ProjectListSearch =>
  compact({ tags: searchList(search.tags) });

export interface ProjectTreeSearch {
  file_path?: string;
}
export const validateProjectTreeSearch = (search: Record<string, unknown>): ProjectTreeSearch =>
  compact({ file_path: searchString(search.file_path) });

export interface VersionsSearch {
  version_id?: string;
}
export const validateVersionsSearch = (search: Record<string, unknown>): VersionsSearch =>
  compact({ version_id: searchString(search.version_id) });
