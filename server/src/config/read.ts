/**
 * Reading one environment variable: a value checked with a TypeBox schema, or a ConfigError
 * whose message names the variable and what it must be (secrets never echo their value).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ConfigVariable } from './variables';

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

export function quoted(value: string): string {
  return JSON.stringify(value);
}

/** Reads a variable; empty or whitespace-only counts as unset. */
export function read(env: Env, name: ConfigVariable): string | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  return value.trim();
}

/** `NAME requirement (got "value")`, without the value for a secret. */
export function invalid(
  name: ConfigVariable,
  raw: string,
  requirement: string,
  secret = false,
): ConfigError {
  return new ConfigError(name, `${name} ${requirement}${secret ? '' : ` (got ${quoted(raw)})`}`);
}

/** `value` when it passes `schema`; otherwise the ConfigError for `raw`. */
function checked<T>(
  schema: TSchema,
  value: T,
  name: ConfigVariable,
  raw: string,
  requirement: string,
  secret = false,
): T {
  if (Value.Check(schema, value)) return value;
  throw invalid(name, raw, requirement, secret);
}

const Digits = Type.String({ pattern: '^\\d+$' });

const BOOLEAN_WORDS = { true: true, '1': true, yes: true, false: false, '0': false, no: false };
const BooleanWord = Type.Union(Object.keys(BOOLEAN_WORDS).map((word) => Type.Literal(word)));

export function readBoolean(env: Env, name: ConfigVariable, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const word = checked(
    BooleanWord,
    raw.toLowerCase(),
    name,
    raw,
    'must be one of true/false/1/0/yes/no',
  );
  return BOOLEAN_WORDS[word as keyof typeof BOOLEAN_WORDS];
}

/**
 * A whole number within [min, max], or `fallback` when unset. `requirement` says what the
 * number is when "an integer between min and max" does not.
 */
export function readInteger(
  env: Env,
  name: ConfigVariable,
  fallback: number,
  min: number,
  max: number,
  requirement = `must be an integer between ${min} and ${max}`,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  checked(Digits, raw, name, raw, requirement);
  return checked(Type.Integer({ minimum: min, maximum: max }), Number(raw), name, raw, requirement);
}

/** One of `values` (in any letter case), or `fallback` when unset. */
export function readChoice<const T extends string>(
  env: Env,
  name: ConfigVariable,
  values: readonly T[],
  fallback: T,
): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const word = raw.toLowerCase();
  const Choice = Type.Union(values.map((value) => Type.Literal(value)));
  return checked(Choice, word as T, name, word, `must be one of ${values.join('|')}`);
}

/** An absolute URL with one of `protocols` (`'https:'`) and a host name. */
export function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(text);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A URL with one of `protocols`, or null when unset. */
export function readUrl(
  env: Env,
  name: ConfigVariable,
  protocols: readonly string[],
  requirement: string,
  secret = false,
): string | null {
  const raw = read(env, name);
  if (raw === undefined) return null;
  if (!isUrl(raw, protocols)) throw invalid(name, raw, requirement, secret);
  return raw;
}

/** An http(s) URL, or null when unset. */
export function readHttpUrl(env: Env, name: ConfigVariable): string | null {
  return readUrl(env, name, ['http:', 'https:'], 'must be an absolute http:// or https:// URL');
}
