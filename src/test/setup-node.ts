/**
 * Vitest setup for the unit project (Node, no DOM; vitest.config.ts): an in-memory IndexedDB
 * for Dexie. The unit-dom project's setup (setup.ts) loads it too.
 */
import 'fake-indexeddb/auto';
