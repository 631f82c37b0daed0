import type { CheckResetCodeRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/password/check: is this the code of the reset link? Does not use the code up. */
export function checkResetCode(body: CheckResetCodeRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/password/check', body, { auth: false });
}
