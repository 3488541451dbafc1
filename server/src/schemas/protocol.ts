/**
 * Protocol constants the server and the web app both read (imported by the client as
 * `@contract/protocol`). Plain values only: no imports, nothing Node- or browser-specific.
 */

/** Size of an upload chunk in bytes (api-reference §7: 10 MiB). */
export const CHUNK_SIZE = 10 * 1024 * 1024;
