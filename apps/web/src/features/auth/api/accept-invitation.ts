import type { AcceptInvitationRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/invitation/accept: an account that already existed joins the organization of its
 * invitation. Without a password yet it answers 400 `password_required` until one is given.
 */
export function acceptInvitation(
  body: AcceptInvitationRequest,
): Promise<{ success: boolean; organizationId: string }> {
  return api.post('/auth/invitation/accept', body, { auth: false });
}
