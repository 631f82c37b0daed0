import { z } from 'zod';

/** Machine codes of the error body (CONTRACT §1). */
export const ERROR_CODES = [
  'invalid_input',
  'invalid_credentials',
  'not_verified',
  'no_panel_access',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'email_taken',
  'seat_limit',
  'business_rule',
  'insufficient_credits',
  'idempotency_key_reused',
  'rate_limited',
  'payload_too_large',
  'invalid_code',
  'password_required',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z.object({
  error: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
