import type { ResendVerificationRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/verify/resend: `{success: true}` whatever the email. */
export function resendVerification(body: ResendVerificationRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/verify/resend', body, { auth: false });
}
