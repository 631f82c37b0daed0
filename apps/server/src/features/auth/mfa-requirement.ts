import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';
import type { TwoFactorSettings } from './two-factor-settings';

/**
 * Must this account sign in with two-factor (CONTRACT §3)? A system admin when REQUIRE_SYSTEM_ADMIN_MFA is on;
 * anyone who is an owner or admin of an organization that requires it, or of one below such an organization.
 * (A role held above a requiring organization is not caught by it: a school's owner decides for the school's
 * people, not for the district's. Decision 015.)
 */
export async function isMfaRequired(
  db: Tx,
  account: { userId: string; isSystemAdmin: boolean },
  settings: TwoFactorSettings,
): Promise<boolean> {
  if (account.isSystemAdmin && settings.requireSystemAdmins) return true;
  const [row] = await rows<{ required: boolean }>(
    db,
    sql`select exists (
      select 1 from memberships m
      join organization_closure c on c.descendant_id = m.organization_id
      join organizations o on o.id = c.ancestor_id and o.require_mfa
      where m.user_id = ${account.userId} and m.role in ${MANAGING_ROLES_SQL}
    ) as required`,
  );
  return row?.required === true;
}

/**
 * An organization began to require two-factor: the sessions of its owners and admins, and those of every
 * organization below, who have not turned it on end in the same transaction, so that each signs in again and is
 * walked through setting it up (a session slides for 7 days of use and would otherwise never meet the rule).
 */
export async function endSessionsOfUnenrolled(tx: Tx, organizationId: string): Promise<void> {
  await tx.execute(sql`
    update sessions s set revoked_at = now()
    where s.revoked_at is null and s.expires_at > now()
      and s.user_id in (
        select m.user_id from organization_closure c
        join memberships m on m.organization_id = c.descendant_id
        where c.ancestor_id = ${organizationId} and m.role in ${MANAGING_ROLES_SQL})
      and not exists (select 1 from user_mfa f where f.user_id = s.user_id and f.enabled_at is not null)`);
}

/** Has the account turned two-factor on (set up and confirmed)? */
export async function hasMfaOn(db: Tx, userId: string): Promise<boolean> {
  const [row] = await rows<{ on: boolean }>(
    db,
    sql`select exists (select 1 from user_mfa where user_id = ${userId} and enabled_at is not null) as on`,
  );
  return row?.on === true;
}
