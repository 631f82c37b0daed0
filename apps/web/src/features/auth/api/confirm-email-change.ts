import type { ConfirmEmailChangeRequest } from '@allot/domain/auth';
import { api } from '../../../lib/api-client';

/**
 * POST /api/auth/email/confirm: the code mailed to the new address. Sent with the session's token when
 * there is one, so that the account confirming its own change stays signed in (every other session ends).
 */
export function confirmEmailChange(
  body: ConfirmEmailChangeRequest,
): Promise<{ success: boolean; email: string }> {
  return api.post('/auth/email/confirm', body);
}
