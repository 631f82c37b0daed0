import type { ResetPasswordRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/password/reset: sets the new password; every session of the user ends. */
export function resetPassword(body: ResetPasswordRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/password/reset', body, { auth: false });
}
