/** The messages between a sandbox pool (runner.ts) and its child processes (child.ts). */

/** Main → child: call the export `name` of `module` with `args`. */
export interface Call {
  /** A file URL of a server module. */
  module: string;
  name: string;
  args: unknown[];
}

/** Main → child: one request. */
export interface Job {
  id: number;
  call: Call;
  /** SQLite's hard heap limit for this request (bytes). */
  sqliteHeapBytes: number;
}

/** An error thrown by the work, as it crosses the process boundary. */
export interface CrossedError {
  name: string;
  text: string;
  /** Its own enumerable properties (structured-clonable ones). */
  fields: Record<string, unknown>;
}

/** Child → main. */
export type Answer =
  | { kind: 'ready' }
  /** The module is loaded: the work itself starts (its time counts from here). */
  | { id: number; kind: 'started' }
  | { id: number; kind: 'done'; result: unknown }
  /** An HTTP problem raised by the work (a 400 or 404 about the request). */
  | { id: number; kind: 'problem'; status: number; detail: string }
  /** The work ran out of memory inside the child (SQLite or V8 said so). */
  | { id: number; kind: 'heavy' }
  | { id: number; kind: 'error'; error: CrossedError };
