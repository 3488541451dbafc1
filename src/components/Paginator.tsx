import { Group, Pagination } from '@mantine/core';

export interface PaginatorProps {
  page: number;
  /** Total number of items. */
  count: number;
  perPage: number;
  onChange: (page: number) => void;
  /** Name of the navigation landmark. @default 'Pagination' */
  label?: string;
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** Number of pages for `count` items, at least 1. */
export function pageCount(count: number, perPage: number): number {
  return Math.max(1, Math.ceil(count / perPage));
}

/**
 * Server-side pagination with first, previous, page links, next and last; shown only when the
 * items do not fit on one page (spec 001 §2).
 */
export function Paginator({
  page,
  count,
  perPage,
  onChange,
  label = 'Pagination',
}: PaginatorProps) {
  if (count <= perPage) return null;
  return (
    <Group component="nav" aria-label={label} justify="center" mt="md">
      <Pagination
        value={page}
        total={pageCount(count, perPage)}
        onChange={onChange}
        withEdges
        siblings={2}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
        getItemProps={(item) => ({
          'aria-label': `Page ${item}`,
          'aria-current': item === page ? 'page' : undefined,
        })}
      />
    </Group>
  );
}
