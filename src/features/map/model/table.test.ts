import { describe, expect, it } from 'vitest';
import {
  INITIAL_TABLE_STATE,
  ariaSort,
  pageCount,
  tableReducer,
  tableRows,
  type TableState,
} from './table';

describe('attribute table state', () => {
  it('sorts a column ascending, then descending, then not at all, from page 1', () => {
    let state: TableState = { ...INITIAL_TABLE_STATE, page: 3 };
    state = tableReducer(state, { type: 'sort', column: 'name' });
    expect(state).toEqual({ page: 1, sort: { column: 'name', direction: 'asc' }, filter: '' });
    expect(ariaSort(state, 'name')).toBe('ascending');
    expect(ariaSort(state, 'height')).toBe('none');
    state = tableReducer({ ...state, page: 2 }, { type: 'sort', column: 'name' });
    expect(state.sort).toEqual({ column: 'name', direction: 'desc' });
    expect(state.page).toBe(1);
    expect(ariaSort(state, 'name')).toBe('descending');
    expect(tableReducer(state, { type: 'sort', column: 'name' }).sort).toBeNull();
    expect(tableReducer(state, { type: 'sort', column: 'height' }).sort).toEqual({
      column: 'height',
      direction: 'asc',
    });
  });

  it('filters from page 1 and keeps the state when the text is the same', () => {
    const state = { ...INITIAL_TABLE_STATE, page: 4, filter: 'oak' };
    expect(tableReducer(state, { type: 'filter', text: 'oak' })).toBe(state);
    expect(tableReducer(state, { type: 'filter', text: 'elm' })).toEqual({
      page: 1,
      sort: null,
      filter: 'elm',
    });
  });

  it('pages within whole numbers from 1', () => {
    expect(tableReducer(INITIAL_TABLE_STATE, { type: 'page', page: 3 }).page).toBe(3);
    expect(tableReducer(INITIAL_TABLE_STATE, { type: 'page', page: 0 }).page).toBe(1);
    expect(tableReducer({ ...INITIAL_TABLE_STATE, page: 5 }, { type: 'reset' })).toEqual(
      INITIAL_TABLE_STATE,
    );
    expect(pageCount(0)).toBe(1);
    expect(pageCount(50)).toBe(1);
    expect(pageCount(51)).toBe(2);
  });

  it('gives an export the rows the table shows: its filter, sort and changed fids', () => {
    expect(tableRows(INITIAL_TABLE_STATE)).toEqual({
      filter: undefined,
      sort: undefined,
      order: undefined,
      fids: undefined,
    });
    const state: TableState = {
      page: 3,
      filter: 'oak',
      sort: { column: 'height', direction: 'desc' },
    };
    expect(tableRows(state, [4, 9])).toEqual({
      filter: 'oak',
      sort: 'height',
      order: 'desc',
      fids: '4,9',
    });
  });
});
