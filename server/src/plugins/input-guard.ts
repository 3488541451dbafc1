/**
 * Refuses NUL characters in path parameters with a 400 before any route runs: no name or
 * id contains one, and the database cannot store one (text columns refuse U+0000), so
 * without this a lookup would fail as a 500. Query values and bodies are left to the routes
 * (a raw download answers "File … not found", push its "Unsupported file name" text);
 * errors.ts turns a NUL that reaches the database anyway into the same 400.
 */
import fp from 'fastify-plugin';
import { HttpProblem } from '../errors';

export const NUL_REFUSED = 'Invalid request: text must not contain NUL characters';

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object') return Object.values(value).some(hasNul);
  return false;
}

export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      if (hasNul(request.params)) throw new HttpProblem(400, NUL_REFUSED);
    });
  },
  { name: 'waymark-input-guard' },
);
