/**
 * A failed request's message in a red alert that screen readers announce; nothing while there
 * is no error. `error` is a query's or mutation's `error` (null until one fails).
 */
import { Alert } from '@mantine/core';

export function ErrorAlert({ error, title }: { error: Error | null | undefined; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" title={title}>
      {error.message}
    </Alert>
  );
}
