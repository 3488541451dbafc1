import { describe, expect, it } from 'vitest';
import { compileFilter } from './filter';

const columns = new Map([
  ['native', 'native'],
  ['kind', 'Kind'],
]);
const column = (name: string) => columns.get(name.toLowerCase()) ?? null;

describe('compileFilter', () => {
  it('turns fixed comparisons into SQL with parameters', () => {
    expect(compileFilter('"native" = 1', column)).toEqual({ sql: '("native" = ?)', params: [1] });
    expect(compileFilter(`"kind" IN ('a', 'b''c') AND NOT native IS NULL`, column)).toEqual({
      sql: `(("Kind" IN (?, ?)) AND (NOT ("native" IS NULL)))`,
      params: ['a', "b'c"],
    });
    expect(compileFilter(`kind != 'x' or native >= -2`, column)).toEqual({
      sql: `(("Kind" <> ?) OR ("native" >= ?))`,
      params: ['x', -2],
    });
  });

  it('gives null for what it cannot evaluate', () => {
    for (const text of [
      `"kind" = current_value('kind')`,
      `"native" = @user_id`,
      `"colour" = 'red'`,
      `upper("kind") = 'A'`,
      `"native" = `,
      `"native" = 1 extra`,
    ]) {
      expect(compileFilter(text, column), text).toBeNull();
    }
  });
});
