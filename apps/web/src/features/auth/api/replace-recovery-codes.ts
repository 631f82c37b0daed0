import type { MfaConfirmRequest, RecoveryCodesResponse } from '@allot/domain/mfa';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/auth/mfa/recovery-codes: 10 new recovery codes (shown once); the earlier ones stop working. */
export function replaceRecoveryCodes(body: MfaConfirmRequest): Promise<RecoveryCodesResponse> {
  return api.post<RecoveryCodesResponse>('/auth/mfa/recovery-codes', body);
}

export function useReplaceRecoveryCodes() {
  return useMutation({
    mutationFn: replaceRecoveryCodes,
    onSuccess: () => invalidate([queryKeys.account.twoFactor()]),
  });
}
