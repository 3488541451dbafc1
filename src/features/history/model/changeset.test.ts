import { describe, expect, it } from 'vitest';
import {
  cellText,
  changesetTables,
  formatChangeValue,
  synchronisationDocsUrl,
  visibleSummary,
  type ChangesetEntry,
} from './changeset';

type Values = { old?: number | string | null; new?: number | string | null };
/** A column change of the contract's shape (cid and type do not matter here). */
const col = (name: string, values: Values = {}) => ({
  column: 0,
  name,
  type: 'text' as const,
  ...values,
});

const entries: ChangesetEntry[] = [
  {
    table: 'points',
    type: 'insert',
    changes: [
      col('fid', { new: 4 }),
      col('geom', { new: 'POINT (1 2)' }),
      col('name', { new: 'oak' }),
    ],
  },
  { table: 'gpkg_contents', type: 'update', changes: [col('table_name', { old: 'points' })] },
  {
    table: 'points',
    type: 'update',
    changes: [col('fid', { old: 1 }), col('name', { old: 'ash', new: 'elm' })],
  },
  { table: 'lines', type: 'delete', changes: [col('fid', { old: 7 }), col('kind')] },
];

describe('changeset tables', () => {
  it('groups entries by table with a column per field in order of appearance', () => {
    const tables = changesetTables(entries);
    expect(tables.map((t) => t.name)).toEqual(['points', 'lines']);
    expect(tables[0]?.columns).toEqual(['fid', 'geom', 'name']);
    expect(tables[0]?.rows).toEqual([
      { type: 'insert', cells: { fid: '4', geom: 'POINT (1 2)', name: 'oak' } },
      { type: 'update', cells: { fid: '1', name: 'ash → elm' } },
    ]);
    expect(tables[1]?.rows).toEqual([{ type: 'delete', cells: { fid: '7', kind: 'N/A' } }]);
  });

  it('lists the tables of the summary first, also those without entries, never gpkg_contents', () => {
    const tables = changesetTables(entries, [
      { table: 'gpkg_contents', insert: 0, update: 1, delete: 0 },
      { table: 'areas', insert: 0, update: 0, delete: 0 },
      { table: 'lines', insert: 0, update: 0, delete: 1 },
    ]);
    expect(tables.map((t) => [t.name, t.rows.length])).toEqual([
      ['areas', 0],
      ['lines', 1],
      ['points', 2],
    ]);
  });

  it('shows values: N/A when absent, NULL for null', () => {
    expect(formatChangeValue(undefined)).toBe('N/A');
    expect(formatChangeValue(null)).toBe('NULL');
    expect(formatChangeValue(0)).toBe('0');
    expect(cellText('insert', { old: 1, new: 2 })).toBe('2');
    expect(cellText('delete', { old: 1 })).toBe('1');
    expect(cellText('update', { old: 1, new: null })).toBe('1 → NULL');
  });

  it('hides gpkg_contents from summaries', () => {
    expect(
      visibleSummary([
        { table: 'gpkg_contents', insert: 0, update: 1, delete: 0 },
        { table: 'points', insert: 3, update: 2, delete: 1 },
      ]),
    ).toEqual([{ table: 'points', insert: 3, update: 2, delete: 1 }]);
    expect(visibleSummary(undefined)).toEqual([]);
  });

  it('links the synchronisation page of the documentation', () => {
    expect(synchronisationDocsUrl('https://docs.example.com/')).toBe(
      'https://docs.example.com/manage/synchronisation',
    );
  });
});
