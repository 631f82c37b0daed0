import type { ResetUserMfaRequest } from '@allot/domain/mfa';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface ResetUserTwoFactorInput extends ResetUserMfaRequest {
  userId: string;
}

/**
 * POST /api/user/{id}/mfa/reset: a system admin turns off someone's two-factor sign-in (a lost phone),
 * confirming it with a `code` of their own two-factor (CONTRACT §3).
 */
export function resetUserTwoFactor({
  userId,
  ...body
}: ResetUserTwoFactorInput): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>(`/user/${encodeURIComponent(userId)}/mfa/reset`, body);
}

/** The audit logs record it; one's own reset changes one's own two-factor. */
export function useResetUserTwoFactor() {
  return useMutation({
    mutationFn: resetUserTwoFactor,
    onSuccess: () => invalidate([queryKeys.auditLog.all(), queryKeys.account.twoFactor()]),
  });
}
