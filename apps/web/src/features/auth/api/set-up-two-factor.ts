import type { MfaSetupRequest, MfaSetupResponse } from '@allot/domain/mfa';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/mfa/setup: a new secret to put in an authenticator app, confirmed by `enable`. Signed in, with
 * the password; at sign-in (`mfa_setup_required`), with the challenge instead of a session.
 */
export function setUpTwoFactor(body: MfaSetupRequest): Promise<MfaSetupResponse> {
  return api.post<MfaSetupResponse>('/auth/mfa/setup', body, { auth: body.challenge === undefined });
}
