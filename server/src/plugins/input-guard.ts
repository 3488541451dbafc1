/**
 * Guards every request before any route runs:
 * - NUL characters in path parameters are a 400: no name or id contains one, and the
 *   database cannot store one (text columns refuse U+0000), so without this a lookup would
 *   fail as a 500. Query values and bodies are left to the routes (a raw download answers
 *   "File … not found", push its "Unsupported file name" text); errors.ts turns a NUL that
 *   reaches the database anyway into the same 400.
 * - JSON bodies nested deeper than MAX_JSON_DEPTH are a 400 before they are parsed: no call
 *   takes more than a few levels, and walking a body thousands of levels deep (validation,
 *   error texts) would overflow the stack.
 * - Unpaired UTF-16 surrogates (`"\ud800"` in JSON) in body texts are a 400: UTF-8 cannot
 *   hold them, so the database would store U+FFFD instead (a changed name) or refuse the
 *   row. File paths (values of `path` keys) are left to the path rule (lib/paths.ts), which
 *   refuses them in each call's own wording ("Unsupported file name detected …").
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '../errors';
import { UNPAIRED_SURROGATE } from '../lib/unicode';

export const NUL_REFUSED = 'Invalid request: text must not contain NUL characters';

export const UNPAIRED_SURROGATE_REFUSED =
  'Invalid request: text must not contain unpaired surrogate characters';

/** Deepest nesting of arrays and objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP = `Failed to decode JSON object: nested deeper than ${MAX_JSON_DEPTH} levels`;

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object') return Object.values(value).some(hasNul);
  return false;
}

/** Whether a parsed JSON body holds an unpaired surrogate outside values of `path` keys. */
function hasUnpairedSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return UNPAIRED_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasUnpairedSurrogate);
  // Parsed JSON only (a streamed or Buffer body is not text).
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).some(
      ([key, item]) =>
        UNPAIRED_SURROGATE.test(key) || (key !== 'path' && hasUnpairedSurrogate(item)),
    );
  }
  return false;
}

/** Whether the JSON text nests arrays/objects deeper than `max` (brackets in strings skipped). */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** application/json: Fastify's own parser (prototype poisoning refused), after the depth check. */
function guardJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new HttpProblem(400, TOO_DEEP), undefined);
      return;
    }
    parse(request, text, done);
  });
}

export default fp(
  async (app) => {
    guardJsonDepth(app);
    app.addHook('preValidation', async (request) => {
      if (hasNul(request.params)) throw new HttpProblem(400, NUL_REFUSED);
      if (hasUnpairedSurrogate(request.body)) {
        throw new HttpProblem(400, UNPAIRED_SURROGATE_REFUSED);
      }
    });
  },
  { name: 'waymark-input-guard' },
);
