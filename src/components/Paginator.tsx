/**
 * Server-side pagination with first, previous, page links, next and last; shown only when the
 * items do not fit on one page (spec 001 §2). Mantine's Pagination loads when a list first needs
 * it (issue 8's bundle budget: most lists fit on one page); its landmark and height are there at
 * once, so nothing moves when it arrives. Should its code fail to load (offline before the
 * service worker cached it), previous and next buttons take its place.
 */
import { Button, Group, rem } from '@mantine/core';
import { Suspense, lazy } from 'react';
import { LoadFailed } from './LoadFailed';

export interface PaginatorProps {
  page: number;
  /** Total number of items. */
  count: number;
  perPage: number;
  onChange: (page: number) => void;
  /** Name of the navigation landmark. @default 'Pagination' */
  label?: string;
}

const PaginatorControls = lazy(() => import('./paginatorControls'));

/** Height of Mantine's small pagination controls (26 px), reserved while they load. */
const CONTROLS_HEIGHT = rem(26);

/** Number of pages for `count` items, at least 1. */
export function pageCount(count: number, perPage: number): number {
  return Math.max(1, Math.ceil(count / perPage));
}

function PreviousNext({
  page,
  total,
  onChange,
}: {
  page: number;
  total: number;
  onChange: (page: number) => void;
}) {
  return (
    <>
      <Button
        size="compact-sm"
        variant="default"
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
      >
        Previous page
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        disabled={page >= total}
        onClick={() => onChange(page + 1)}
      >
        Next page
      </Button>
    </>
  );
}

export function Paginator({
  page,
  count,
  perPage,
  onChange,
  label = 'Pagination',
}: PaginatorProps) {
  if (count <= perPage) return null;
  const total = pageCount(count, perPage);
  return (
    <Group component="nav" aria-label={label} justify="center" mt="md" mih={CONTROLS_HEIGHT}>
      <LoadFailed fallback={<PreviousNext page={page} total={total} onChange={onChange} />}>
        <Suspense fallback={null}>
          <PaginatorControls page={page} total={total} onChange={onChange} />
        </Suspense>
      </LoadFailed>
    </Group>
  );
}
