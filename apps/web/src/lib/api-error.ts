import { MSG } from '@allot/domain/messages';

/** A failed API call: the HTTP status plus the error body of CONTRACT §1. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Status 0: the request never got an answer (offline, server down, aborted). */
export const NETWORK_ERROR_STATUS = 0;

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The text to show for a failed call: the server's message, or the catch-all of the spec. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : MSG.somethingWentWrong;
}
