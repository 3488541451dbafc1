/** Page arithmetic with the reference's rules (api-reference §0.4). */
import { notFound } from '../errors';

export interface PageRequest {
  page: number;
  perPage: number;
}

/** LIMIT/OFFSET for a page; `per_page` < 1 (or `page` < 1) is a generic 404. */
export function pageWindow({ page, perPage }: PageRequest): { limit: number; offset: number } {
  if (!Number.isSafeInteger(page) || !Number.isSafeInteger(perPage) || page < 1 || perPage < 1) {
    throw notFound();
  }
  const offset = (page - 1) * perPage;
  if (!Number.isSafeInteger(offset)) throw notFound();
  return { limit: perPage, offset };
}

/** A page past the end (no items on a page other than the first) is a generic 404. */
export function assertPageExists(page: number, itemCount: number): void {
  if (itemCount === 0 && page !== 1) throw notFound();
}
