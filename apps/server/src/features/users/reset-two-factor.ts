import { MFA_MSG, type ResetUserMfaRequest } from '@allot/domain/mfa';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { type CodeAttempt, revokeAllSessions, type SignInSettings, turnOffMfa, useOwnCode } from '../auth';
import { requireSystemAdmin } from '../organization-access';
import { auditMemberChanges } from './member-audit';
import { requireVisibleAccount } from './update-users';

/**
 * POST /api/user/{id}/mfa/reset (CONTRACT §3, decision 015): a system admin turns off someone's two-factor (a
 * lost phone and lost recovery codes). `404` for an account the caller cannot see, `403` for anyone else who
 * sees it. The account's sessions end; it signs in with its password again (and, if an organization requires
 * two-factor of it, sets it up anew). In the audit log of every organization the account is a member of. The caller's
 * own two-factor must be on, with a code of it in the call (CONTRACT §3, `useOwnCode`).
 */
export async function resetUserMfa(
  tx: Tx,
  user: AuthUser,
  userId: string,
  input: ResetUserMfaRequest | null | undefined,
  own: { attempt: CodeAttempt | null; settings: SignInSettings },
): Promise<{ success: true }> {
  await requireVisibleAccount(tx, user, userId);
  await requireSystemAdmin(tx, user, { message: MFA_MSG.systemAdminOnly });
  await useOwnCode(tx, user, input?.code, own.attempt, own.settings);
  if (!(await turnOffMfa(tx, userId))) return { success: true };
  await revokeAllSessions(tx, userId, { except: userId === user.userId ? user.sessionId : undefined });
  const memberOf = await rows<{ organization_id: string }>(
    tx,
    sql`select organization_id from memberships where user_id = ${userId} order by organization_id`,
  );
  for (const m of memberOf) {
    await auditMemberChanges(
      tx,
      { organizationId: m.organization_id, actorId: user.userId, action: 'member_two_factor_reset' },
      [{ userId, before: { twoFactor: true }, after: { twoFactor: false } }],
    );
  }
  return { success: true };
}
