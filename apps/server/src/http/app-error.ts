import type { ErrorCode } from '@allot/domain/errors';
import { APP_MSG, MSG } from '@allot/domain/messages';

/** The one error type services throw; the error handler turns it into CONTRACT §1's body. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** CONTRACT §1's error body of this error. */
  body(): { error: ErrorCode; message: string; details?: Record<string, unknown> } {
    return { error: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }

  static invalid(fields: Record<string, string>, message: string = APP_MSG.invalidInput) {
    return new AppError(400, 'invalid_input', message, { fields });
  }
  static unauthorized() {
    return new AppError(401, 'unauthorized', APP_MSG.unauthorized);
  }
  static forbidden(message: string = APP_MSG.forbidden) {
    return new AppError(403, 'forbidden', message);
  }
  static notFound() {
    return new AppError(404, 'not_found', APP_MSG.notFound);
  }
  /** CONTRACT §6: an email belongs to one account; the text also lands on the form's email field. */
  static emailTaken() {
    return new AppError(409, 'email_taken', MSG.emailTaken, { fields: { email: MSG.emailTaken } });
  }
}
