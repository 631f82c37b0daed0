import type { VerifyEmailRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/verify: verifies the email with its code. An invited account without a password
 * answers 400 `password_required` until one is given.
 */
export function verifyEmail(body: VerifyEmailRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/verify', body, { auth: false });
}
