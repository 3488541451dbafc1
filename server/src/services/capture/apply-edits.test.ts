import { describe, expect, it } from 'vitest';
import { EditRefusal, sqlValue } from './apply-edits';
import type { TableColumn } from './gpkg-tables';

const column = (type: TableColumn['type'], length: number | null = null): TableColumn => ({
  name: 'c',
  declared: type.toUpperCase(),
  type,
  length,
  notNull: false,
  sqlDefault: null,
});

describe('sqlValue', () => {
  it('stores values as the column holds them', () => {
    expect(sqlValue(true, column('boolean'), 'l')).toBe(1n);
    expect(sqlValue(12, column('integer'), 'l')).toBe(12n);
    expect(sqlValue('2.5', column('double'), 'l')).toBe(2.5);
    expect(sqlValue('2024-05-01', column('date'), 'l')).toBe('2024-05-01');
    expect(sqlValue('2024-05-01T12:30:00+02:00', column('datetime'), 'l')).toBe(
      '2024-05-01T10:30:00.000Z',
    );
    expect(sqlValue(null, column('integer'), 'l')).toBeNull();
  });

  it('refuses what the column cannot hold (400)', () => {
    const cases: [unknown, TableColumn][] = [
      [1.5, column('integer')],
      ['tall', column('double')],
      ['2024-02-30', column('date')],
      ['yesterday', column('datetime')],
      ['abcdef', column('text', 5)],
      ['x', column('blob')],
      [true, column('text')],
    ];
    for (const [value, c] of cases) {
      let error: unknown;
      try {
        sqlValue(value as never, c, 'l');
      } catch (e) {
        error = e;
      }
      expect(error, `${String(value)} in ${c.type}`).toBeInstanceOf(EditRefusal);
      expect((error as EditRefusal).status).toBe(400);
    }
  });
});
