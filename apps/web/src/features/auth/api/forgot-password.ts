import type { ForgotPasswordRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/password/forgot: `{success: true}` whether or not the email has an account. */
export function forgotPassword(body: ForgotPasswordRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/password/forgot', body, { auth: false });
}
