/**
 * The attribute table's state (issue 19): 50 rows a page, sorted by one column (ascending, then
 * descending, then unsorted again), filtered by a text; a new sort or filter starts at page 1.
 */
export const TABLE_PAGE_SIZE = 50;

export type SortDirection = 'asc' | 'desc';

export interface TableState {
  /** 1-based. */
  page: number;
  sort: { column: string; direction: SortDirection } | null;
  filter: string;
}

export const INITIAL_TABLE_STATE: TableState = { page: 1, sort: null, filter: '' };

export type TableAction =
  | { type: 'sort'; column: string }
  | { type: 'filter'; text: string }
  | { type: 'page'; page: number }
  | { type: 'reset' };

export function tableReducer(state: TableState, action: TableAction): TableState {
  switch (action.type) {
    case 'sort': {
      const current = state.sort?.column === action.column ? state.sort.direction : null;
      const sort =
        current === null
          ? { column: action.column, direction: 'asc' as const }
          : current === 'asc'
            ? { column: action.column, direction: 'desc' as const }
            : null;
      return { ...state, sort, page: 1 };
    }
    case 'filter':
      return action.text === state.filter ? state : { ...state, filter: action.text, page: 1 };
    case 'page':
      return { ...state, page: Math.max(1, Math.trunc(action.page)) };
    case 'reset':
      return INITIAL_TABLE_STATE;
  }
}

/** Pages for `total` rows (at least one, so an empty table still says 'page 1 of 1'). */
export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / TABLE_PAGE_SIZE));

/** The `aria-sort` of a column header. */
export function ariaSort(state: TableState, column: string): 'ascending' | 'descending' | 'none' {
  if (state.sort?.column !== column) return 'none';
  return state.sort.direction === 'asc' ? 'ascending' : 'descending';
}

/** The rows the table shows, as an export takes them (its filter, sort and changed fids). */
export function tableRows(
  state: TableState,
  fids?: readonly number[],
): { filter?: string; sort?: string; order?: SortDirection; fids?: string } {
  return {
    filter: state.filter || undefined,
    sort: state.sort?.column,
    order: state.sort?.direction,
    fids: fids ? fids.join(',') : undefined,
  };
}
