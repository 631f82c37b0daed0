import type { LoginResponse } from '@allot/domain/auth';
import { APP_MSG } from '@allot/domain/messages';
import { hasPanelAccess, isRole, type Role, strongestRole } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { createSession } from './sessions';
import type { SignInSettings } from './sign-in-settings';

/**
 * The session of a sign-in, with the role it reports (CONTRACT §3): `system_admin`, else the strongest role held
 * anywhere; `403 no_panel_access` for a teacher. Run in a write transaction: the account's memberships are read
 * `for share`, so a change that lowers the role or ends them (and then ends the account's sessions:
 * `endSessionsWithoutPanelAccess`) waits for this session to exist, or this reads the change.
 */
export async function openPanelSession(
  tx: Tx,
  account: { userId: string; email: string; isSystemAdmin: boolean },
  opened: { usedMfa: boolean; settings: SignInSettings },
): Promise<LoginResponse> {
  const role = panelRoleOf(account, await holdMemberships(tx, account.userId));
  const secToken = await createSession(tx, account.userId, {
    usedMfa: opened.usedMfa,
    maxDays: opened.settings.sessionMaxDays,
  });
  return { secToken, userId: account.userId, userEmail: account.email, role };
}

/**
 * The account's memberships, share-locked until the transaction ends: a change that lowers a role or ends a
 * membership waits for the sign-in holding them (and then ends its session), or the sign-in reads the change.
 */
function holdMemberships(tx: Tx, userId: string) {
  return rows<{ role: string }>(
    tx,
    sql`select role from memberships where user_id = ${userId} order by organization_id for share`,
  );
}

/** The role a sign-in reports from the memberships it holds; `403 no_panel_access` for a teacher. */
function panelRoleOf(account: { isSystemAdmin: boolean }, held: readonly { role: string }[]): Role {
  const role = account.isSystemAdmin ? 'system_admin' : strongestRole(held.map((r) => r.role).filter(isRole));
  if (!role || !hasPanelAccess(role)) throw AppError.of('no_panel_access', APP_MSG.noPanelAccess);
  return role;
}

/**
 * A password sign-in's first step, before any second factor is asked: the account's memberships held (as
 * `openPanelSession` holds them) and a teacher refused.
 */
export async function holdPanelRole(tx: Tx, account: { userId: string; isSystemAdmin: boolean }) {
  panelRoleOf(account, await holdMemberships(tx, account.userId));
}

/**
 * Which of these accounts sign in would refuse (`no_panel_access`: a teacher wherever they are a member, or a
 * member nowhere, and no system admin). Their mail is written for a teacher (issue 33): they use the classroom
 * product, never the panel.
 */
export async function withoutPanelAccess(tx: Tx, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const found = await rows<{ id: string }>(
    tx,
    sql`select u.id from users u where u.id in ${uuidsIn(userIds)} and not u.is_system_admin
        and not exists (select 1 from memberships m where m.user_id = u.id and m.role <> 'user')`,
  );
  return new Set(found.map((r) => r.id));
}
