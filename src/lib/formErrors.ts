/**
 * Showing a failed form submission (spec 000 §5): server field errors go under their fields;
 * anything else (a `detail`, a network failure, errors for fields the form does not have) is
 * shown as a failure toast.
 */
import { errorMessage, isApiError } from '@/api';
import { notifyError } from './notify';

export interface SplitFormError {
  /** First message per known field. */
  fields: Record<string, string>;
  /** Messages that belong to no field of the form, for a toast. */
  other: string[];
}

export function splitFormError(
  error: unknown,
  fields: readonly string[],
  fallback: string,
): SplitFormError {
  if (isApiError(error) && error.formErrors) {
    const result: SplitFormError = { fields: {}, other: [] };
    for (const [field, messages] of Object.entries(error.formErrors)) {
      if (fields.includes(field)) result.fields[field] = messages[0] as string;
      else result.other.push(...messages);
    }
    return result;
  }
  return { fields: {}, other: [errorMessage(error, fallback)] };
}

export function reportFormError(
  error: unknown,
  fields: readonly string[],
  setErrors: (errors: Record<string, string>) => void,
  fallback: string,
  toast: (message: string) => void = notifyError,
): void {
  const { fields: fieldErrors, other } = splitFormError(error, fields, fallback);
  setErrors(fieldErrors);
  if (other.length > 0) toast(other.join(' '));
}
