import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ResendInvitationInput {
  organizationId: string;
  userId: string;
}

/**
 * POST /api/organization/{id}/users/{userId}/invitation/resend: mails a pending person again with a new
 * code (the earlier mail's code stops working). Nothing a list shows changes, so nothing is refetched.
 */
export function resendInvitation({
  organizationId,
  userId,
}: ResendInvitationInput): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>(
    `/organization/${encodeURIComponent(organizationId)}/users/${encodeURIComponent(userId)}/invitation/resend`,
    {},
  );
}

export function useResendInvitation() {
  return useMutation({ mutationFn: resendInvitation });
}
