import type { ResendInvitationRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/** POST /api/auth/invitation/resend: `{success: true}` whatever the email. */
export function resendInvitation(body: ResendInvitationRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/invitation/resend', body, { auth: false });
}
