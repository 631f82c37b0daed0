import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/user/{id}/mfa/reset: a system admin turns off someone's two-factor sign-in (a lost phone). */
export function resetUserTwoFactor(userId: string): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>(`/user/${encodeURIComponent(userId)}/mfa/reset`);
}

/** The audit logs record it; one's own reset changes one's own two-factor. */
export function useResetUserTwoFactor() {
  return useMutation({
    mutationFn: resetUserTwoFactor,
    onSuccess: () => invalidate([queryKeys.auditLog.all(), queryKeys.account.twoFactor()]),
  });
}
