import { errorText, isApiError } from './api-error';

/**
 * The field messages of a failed answer (`details.fields`, CONTRACT §1: a 400, or a 409 such as
 * `email_taken` that names its field), or an empty object.
 */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!isApiError(error)) return {};
  const fields = (error.details as { fields?: unknown } | undefined)?.fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/**
 * Puts the server's field messages on the form fields it knows; returns the message to show above
 * the form when some of the error is not about a known field (or null when every part landed on a field).
 */
export function applyServerErrors<F extends string>(
  error: unknown,
  knownFields: readonly F[],
  setFieldError: (field: F, message: string) => void,
): string | null {
  const fields = serverFieldErrors(error);
  let placed = 0;
  for (const [field, message] of Object.entries(fields)) {
    if ((knownFields as readonly string[]).includes(field)) {
      setFieldError(field as F, message);
      placed += 1;
    }
  }
  if (placed > 0 && placed === Object.keys(fields).length) return null;
  return errorText(error);
}
