import type { LoginResponse } from '@allot/domain/auth';
import type { MfaVerifyRequest } from '@allot/domain/mfa';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/mfa/verify: the code step of a sign-in answered `mfa_required`. A public call: its 401 is a
 * sign-in that expired, not a session.
 */
export function verifyTwoFactor(body: MfaVerifyRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/mfa/verify', body, { auth: false });
}
