import type { LoginResponse } from '@allot/domain/auth';
import { APP_MSG } from '@allot/domain/messages';
import { hasPanelAccess, isRole, strongestRole } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { strongestRoleAnywhere } from '../organization-access/access';
import { createSession } from './sessions';

/**
 * The session of a sign-in, with the role it reports (CONTRACT §3): `system_admin`, else the strongest role held
 * anywhere; `403 no_panel_access` for a teacher. Run in a write transaction: the account's memberships are read
 * `for share`, so a change that lowers the role or ends them (and then ends the account's sessions:
 * `endSessionsWithoutPanelAccess`) waits for this session to exist, or this reads the change.
 */
export async function openPanelSession(
  tx: Tx,
  account: { userId: string; email: string; isSystemAdmin: boolean },
): Promise<LoginResponse> {
  const held = await rows<{ role: string }>(
    tx,
    sql`select role from memberships where user_id = ${account.userId} order by organization_id for share`,
  );
  const role = account.isSystemAdmin ? 'system_admin' : strongestRole(held.map((r) => r.role).filter(isRole));
  if (!role || !hasPanelAccess(role)) throw AppError.of('no_panel_access', APP_MSG.noPanelAccess);
  const secToken = await createSession(tx, account.userId);
  return { secToken, userId: account.userId, userEmail: account.email, role };
}

/** The role sign in would report, without a session: for refusing a teacher before any second factor is asked. */
export async function requirePanelRole(db: Tx, account: { userId: string; isSystemAdmin: boolean }) {
  if (account.isSystemAdmin) return;
  if (!hasPanelAccess(await strongestRoleAnywhere(db, account.userId))) {
    throw AppError.of('no_panel_access', APP_MSG.noPanelAccess);
  }
}
