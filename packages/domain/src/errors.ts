import { z } from 'zod';

/** Machine codes of the error body (CONTRACT §1). */
export const ERROR_CODES = [
  'invalid_input',
  'invalid_credentials',
  'not_verified',
  'no_panel_access',
  'mfa_required',
  'mfa_setup_required',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'email_taken',
  'seat_limit',
  'business_rule',
  'insufficient_credits',
  'daily_limit',
  'idempotency_key_reused',
  'rate_limited',
  'payload_too_large',
  'invalid_code',
  'password_required',
  'internal',
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The HTTP status of each code (CONTRACT §1): the one table the server's `AppError.of` answers with.
 * (Fastify's own refusals keep their status: a body that is not JSON is a `415` `invalid_input`.)
 */
export const ERROR_STATUS = {
  invalid_input: 400,
  invalid_credentials: 401,
  not_verified: 403,
  no_panel_access: 403,
  mfa_required: 403,
  mfa_setup_required: 403,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  email_taken: 409,
  seat_limit: 402,
  business_rule: 422,
  insufficient_credits: 422,
  daily_limit: 422,
  idempotency_key_reused: 409,
  rate_limited: 429,
  payload_too_large: 413,
  invalid_code: 400,
  password_required: 400,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

/** Seconds a `503 unavailable` asks the client to wait before sending the request again (`Retry-After`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** CONTRACT §1's error body: a machine code, a sentence for a person, and what the error adds. */
export const errorBodySchema = z
  .object({
    error: z.enum(ERROR_CODES).describe('Machine code of the error; stable, for scripts'),
    message: z.string().describe('A sentence to show to a person, in the spec’s words'),
    details: z
      .object({
        fields: z
          .record(z.string(), z.string())
          .optional()
          .describe('400: each invalid field (dotted path into the body or query) and its message'),
        available: z
          .number()
          .int()
          .optional()
          .describe('422 insufficient_credits: what the named source holds'),
        challenge: z
          .string()
          .optional()
          .describe(
            '403 mfa_required / mfa_setup_required: the sign-in’s second step, for POST /api/auth/mfa/verify (or setup and enable)',
          ),
      })
      .catchall(z.unknown())
      .optional()
      .describe('What the error adds; a 402 of an import carries its added, skipped and seats'),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
