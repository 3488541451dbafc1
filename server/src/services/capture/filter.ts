/**
 * A ValueRelation's filter expression as SQL, when it is a fixed expression the server can
 * evaluate: comparisons (=, ==, !=, <>, <, >, <=, >=, LIKE, ILIKE, IN (…), IS [NOT] NULL)
 * of the source layer's columns and literals (strings, numbers, NULL, TRUE, FALSE), joined
 * with AND / OR / NOT and parentheses. Anything else (current_value(), @variables,
 * functions, …) gives null: the relation is then listed unfiltered. Column names must be
 * the layer's (resolved by `column`); literals become parameters.
 */

type Token =
  | { t: 'col'; v: string }
  | { t: 'lit'; v: string | number | null }
  | { t: 'op'; v: string }
  | { t: 'word'; v: string }
  | { t: '(' | ')' | ',' };

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const c = text[at]!;
    if (/\s/.test(c)) {
      at++;
      continue;
    }
    if (c === '"') {
      const end = text.indexOf('"', at + 1);
      if (end < 0) return null;
      tokens.push({ t: 'col', v: text.slice(at + 1, end) });
      at = end + 1;
      continue;
    }
    if (c === "'") {
      let value = '';
      let i = at + 1;
      for (;;) {
        if (i >= text.length) return null;
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          break;
        }
        value += text[i];
        i++;
      }
      tokens.push({ t: 'lit', v: value });
      at = i + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(at));
    if (number && (c !== '-' || tokens.length === 0 || tokens[tokens.length - 1]!.t === 'op')) {
      tokens.push({ t: 'lit', v: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const op = /^(==|!=|<>|<=|>=|=|<|>)/.exec(text.slice(at));
    if (op) {
      tokens.push({ t: 'op', v: op[0] === '==' ? '=' : op[0] === '!=' ? '<>' : op[0] });
      at += op[0].length;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ t: c });
      at++;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at));
    if (!word) return null;
    const upper = word[0].toUpperCase();
    at += word[0].length;
    // A function call (name followed by '(') cannot be evaluated here.
    if (/^\s*\(/.test(text.slice(at)) && upper !== 'IN') return null;
    if (upper === 'NULL') tokens.push({ t: 'lit', v: null });
    else if (upper === 'TRUE') tokens.push({ t: 'lit', v: 1 });
    else if (upper === 'FALSE') tokens.push({ t: 'lit', v: 0 });
    else if (['AND', 'OR', 'NOT', 'IS', 'IN', 'LIKE', 'ILIKE'].includes(upper)) {
      tokens.push({ t: 'word', v: upper });
    } else tokens.push({ t: 'col', v: word[0] });
  }
  return tokens;
}

class Fail extends Error {}

/** The filter as a WHERE clause with parameters, or null when it cannot be evaluated here. */
export function compileFilter(
  text: string,
  column: (name: string) => string | null,
): { sql: string; params: unknown[] } | null {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return null;
  let at = 0;
  const params: unknown[] = [];
  const peek = () => tokens[at];
  const isWord = (v: string) => {
    const token = peek();
    return token?.t === 'word' && token.v === v;
  };
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const operand = (): string => {
    const token = tokens[at++];
    if (!token) throw new Fail();
    if (token.t === 'col') {
      const real = column(token.v);
      if (!real) throw new Fail();
      return quote(real);
    }
    if (token.t === 'lit') {
      if (token.v === null) return 'NULL';
      params.push(token.v);
      return '?';
    }
    throw new Fail();
  };
  const expr = (): string => {
    let left = and();
    while (isWord('OR')) {
      at++;
      left = `(${left} OR ${and()})`;
    }
    return left;
  };
  const and = (): string => {
    let left = unary();
    while (isWord('AND')) {
      at++;
      left = `(${left} AND ${unary()})`;
    }
    return left;
  };
  const unary = (): string => {
    if (isWord('NOT')) {
      at++;
      return `(NOT ${unary()})`;
    }
    if (peek()?.t === '(') {
      at++;
      const inner = expr();
      if (peek()?.t !== ')') throw new Fail();
      at++;
      return `(${inner})`;
    }
    const left = operand();
    const token = peek();
    if (token?.t === 'op') {
      at++;
      return `(${left} ${token.v} ${operand()})`;
    }
    if (isWord('IS')) {
      at++;
      const not = isWord('NOT');
      if (not) at++;
      const right = operand();
      return `(${left} IS ${not ? 'NOT ' : ''}${right})`;
    }
    if (isWord('LIKE') || isWord('ILIKE')) {
      at++;
      return `(${left} LIKE ${operand()})`;
    }
    if (isWord('IN')) {
      at++;
      if (peek()?.t !== '(') throw new Fail();
      at++;
      const list = [operand()];
      while (peek()?.t === ',') {
        at++;
        list.push(operand());
      }
      if (peek()?.t !== ')') throw new Fail();
      at++;
      return `(${left} IN (${list.join(', ')}))`;
    }
    throw new Fail();
  };
  try {
    const sql = expr();
    if (at !== tokens.length) return null;
    return { sql, params };
  } catch (error) {
    if (error instanceof Fail) return null;
    throw error;
  }
}
