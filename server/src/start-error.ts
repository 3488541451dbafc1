// The one line `npm start` prints when the server cannot start.

/** What stopped the start, in one line: whatever was thrown (not always an Error with a message). */
export function startErrorText(error: unknown): string {
  if (error instanceof Error && error.message) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EADDRINUSE'
      ? `${error.message} (another process uses this port)`
      : error.message;
  }
  if (typeof error === 'object' && error !== null) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof code === 'string') return code;
    return JSON.stringify(error) ?? String(error);
  }
  return String(error);
}
