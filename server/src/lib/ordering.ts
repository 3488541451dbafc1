/**
 * The two `order_params` dialects of the reference (§6.1, §6.2), parsed against a whitelist
 * of sortable columns. Unknown columns and malformed tokens are ignored, never an error.
 */

export interface OrderTerm<C extends string> {
  column: C;
  descending: boolean;
}

function tokens(param: string | undefined): string[] {
  if (!param) return [];
  return param
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
}

/**
 * `/app` lists: `"<column> <ASC|DESC>"` tokens (direction case-insensitive, one space),
 * e.g. `requested_at DESC,id ASC`. `columns` maps accepted names to the caller's columns.
 */
export function parseSqlOrder<C extends string>(
  param: string | undefined,
  columns: Readonly<Record<string, C>>,
): OrderTerm<C>[] {
  const terms: OrderTerm<C>[] = [];
  for (const token of tokens(param)) {
    const match = /^(\S+) (asc|desc)$/i.exec(token);
    if (!match || !Object.hasOwn(columns, match[1]!)) continue;
    terms.push({ column: columns[match[1]!]!, descending: match[2]!.toLowerCase() === 'desc' });
  }
  return terms;
}

/**
 * `/v1/project/paginated`: `<column>_asc` / `<column>_desc` tokens. As in the reference, a
 * token containing `_asc` is ascending and anything else descending (`name` alone sorts
 * descending).
 */
export function parseSuffixOrder<C extends string>(
  param: string | undefined,
  columns: Readonly<Record<string, C>>,
): OrderTerm<C>[] {
  const terms: OrderTerm<C>[] = [];
  for (const token of tokens(param)) {
    const name = token.replace(/_(asc|desc)$/i, '');
    if (!Object.hasOwn(columns, name)) continue;
    terms.push({ column: columns[name]!, descending: !token.includes('_asc') });
  }
  return terms;
}
