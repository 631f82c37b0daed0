import { ERROR_STATUS, type ErrorCode } from '@allot/domain/errors';
import { APP_MSG, MSG } from '@allot/domain/messages';

/**
 * The one error type services throw; the error handler turns it into CONTRACT §1's body. The status comes
 * from the code (`ERROR_STATUS`, packages/domain/src/errors.ts): build one with `AppError.of(code, …)` or a
 * helper below, never with a status of your own.
 */
export class AppError extends Error {
  readonly status: number;

  /** Subclasses name their code; everyone else calls `AppError.of`. */
  protected constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = ERROR_STATUS[code];
  }

  /** CONTRACT §1's error body of this error. */
  body(): { error: ErrorCode; message: string; details?: Record<string, unknown> } {
    return { error: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  /**
   * The error of `code`, with its status from the table. `cause`: the unexpected error behind an `internal`
   * one, which the error handler logs (never answers).
   */
  static of(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ): AppError {
    return new AppError(code, message, details, options);
  }

  static invalid(fields: Record<string, string>, message: string = APP_MSG.invalidInput) {
    return AppError.of('invalid_input', message, { fields });
  }
  static unauthorized(message: string = APP_MSG.unauthorized) {
    return AppError.of('unauthorized', message);
  }
  static forbidden(message: string = APP_MSG.forbidden) {
    return AppError.of('forbidden', message);
  }
  static notFound() {
    return AppError.of('not_found', APP_MSG.notFound);
  }
  /** CONTRACT §6: an email belongs to one account; the text also lands on the form's email field. */
  static emailTaken() {
    return AppError.of('email_taken', MSG.emailTaken, { fields: { email: MSG.emailTaken } });
  }
}
