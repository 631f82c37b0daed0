import type { MfaConfirmRequest } from '@allot/domain/mfa';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/auth/mfa/disable: two-factor off, with the password and a code; the other sessions end. */
export function disableTwoFactor(body: MfaConfirmRequest): Promise<{ success: boolean }> {
  return api.post<{ success: boolean }>('/auth/mfa/disable', body);
}

export function useDisableTwoFactor() {
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => invalidate([queryKeys.account.twoFactor()]),
  });
}
