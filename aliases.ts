// Import aliases shared by Vite, Vitest and the browser benches (tsconfig.json declares the
// same paths for the type checker):
// - `@/…` is the web app (src/);
// - `@contract/…` is the wire contract (server/src/schemas/): route schemas, whose types the
//   client imports with `import type` only, and the protocol constants both sides read.
import { fileURLToPath } from 'node:url';

export const aliases = {
  '@contract': fileURLToPath(new URL('./server/src/schemas', import.meta.url)),
  '@': fileURLToPath(new URL('./src', import.meta.url)),
};
