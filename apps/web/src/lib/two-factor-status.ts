import type { MfaStatus } from '@allot/domain/mfa';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** GET /api/auth/mfa: whether the caller's two-factor sign-in is on, its recovery codes left, and if required. */
export function getTwoFactorStatus(signal?: AbortSignal): Promise<MfaStatus> {
  return api.get<MfaStatus>('/auth/mfa', { signal });
}

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: queryKeys.account.twoFactor(),
    queryFn: ({ signal }) => getTwoFactorStatus(signal),
    staleTime: 0,
  });
}
