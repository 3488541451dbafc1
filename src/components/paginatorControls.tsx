/** Mantine's Pagination as the Paginator shows it, for `Paginator.tsx` to load when needed. */
import { Pagination } from '@mantine/core';

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export interface PaginatorControlsProps {
  page: number;
  total: number;
  onChange: (page: number) => void;
}

export default function PaginatorControls({ page, total, onChange }: PaginatorControlsProps) {
  return (
    <Pagination
      value={page}
      total={total}
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
  );
}
