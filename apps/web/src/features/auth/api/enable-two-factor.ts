import type { MfaEnableRequest, MfaEnableResponse } from '@allot/domain/mfa';
import { api } from '../../../lib/api-client';
import { invalidate } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * POST /api/auth/mfa/enable: the first code of the app turns two-factor on; the answer holds the 10 recovery
 * codes, this once. With a sign-in's challenge it also holds the new session.
 */
export async function enableTwoFactor(body: MfaEnableRequest): Promise<MfaEnableResponse> {
  const answer = await api.post<MfaEnableResponse>('/auth/mfa/enable', body, {
    auth: body.challenge === undefined,
  });
  if (body.challenge === undefined) await invalidate([queryKeys.account.twoFactor()]);
  return answer;
}
