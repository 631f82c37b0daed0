import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';
import type { SignInSettings } from './sign-in-settings';

/**
 * Must this account sign in with two-factor (CONTRACT §3)? A system admin when REQUIRE_SYSTEM_ADMIN_MFA is on;
 * anyone who is an owner or admin of an organization that requires it, or of one below such an organization.
 * (A role held above a requiring organization is not caught by it: a school's owner decides for the school's
 * people, not for the district's. Decision 015.)
 */
export async function isMfaRequired(
  db: Tx,
  account: { userId: string; isSystemAdmin: boolean },
  settings: SignInSettings,
): Promise<boolean> {
  if (account.isSystemAdmin && settings.requireSystemAdmins) return true;
  const [row] = await rows<{ required: boolean }>(
    db,
    sql`select ${heldInRequiringTree(sql`${account.userId}`)} as required`,
  );
  return row?.required === true;
}

/**
 * Any constant: the advisory locks that keep a password sign-in and a change that makes two-factor required of
 * its account from crossing, one per account and one per organization (of `requireMfa`).
 */
const REQUIREMENT_LOCKS = 7_141_051;

/**
 * A password sign-in about to ask whether two-factor is required of the account: holds (shared) the account's
 * lock and those of every organization above its owner and admin memberships, in key order, until the
 * transaction ends. A change that makes it required takes one of them exclusively before it ends the sessions
 * without two-factor (`endSessionsWithoutRequiredMfa`, `endSessionsOfUnenrolled`), so either that change
 * committed first and the sign-in reads it (and asks for two-factor), or the sign-in's session exists when the
 * change ends sessions. Take the memberships' share lock first (`openPanelSession`'s order): a role change
 * holds a membership, then this lock.
 */
export async function holdRequirementForSignIn(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${REQUIREMENT_LOCKS}, k) from (
      select hashtext(${userId}::text) as k
      union
      select hashtext(c.ancestor_id::text) from memberships m
        join organization_closure c on c.descendant_id = m.organization_id
        where m.user_id = ${userId} and m.role in ${MANAGING_ROLES_SQL}
      order by k) keys`);
}

/** A managing membership (owner or admin) in an organization that requires two-factor, or below one. */
const heldInRequiringTree = (userId: SQL) => sql`exists (
  select 1 from memberships m
  join organization_closure c on c.descendant_id = m.organization_id
  join organizations o on o.id = c.ancestor_id and o.require_mfa
  where m.user_id = ${userId} and m.role in ${MANAGING_ROLES_SQL})`;

/**
 * An organization began to require two-factor: the sessions of its owners and admins, and those of every
 * organization below, that did not prove the second factor end in the same transaction, so that each signs in
 * again (and is walked through setting it up): a session slides for up to 30 days of use and would otherwise
 * never meet the rule.
 */
export async function endSessionsOfUnenrolled(tx: Tx, organizationId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${REQUIREMENT_LOCKS}, hashtext(${organizationId}::text))`,
  );
  await tx.execute(sql`
    update sessions s set revoked_at = now()
    where s.revoked_at is null and s.expires_at > now() and not s.used_mfa
      and s.user_id in (
        select m.user_id from organization_closure c
        join memberships m on m.organization_id = c.descendant_id
        where c.ancestor_id = ${organizationId} and m.role in ${MANAGING_ROLES_SQL})`);
}

/**
 * CONTRACT §3: gaining an owner or admin role in a tree that requires two-factor (an invitation accepted, a role
 * raised, ownership taken) ends the account's sessions that did not prove the second factor, as switching the
 * requirement on does. Called in the transaction of the change, after it: whoever is now caught is signed out.
 */
export async function endSessionsWithoutRequiredMfa(tx: Tx, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const ids = [...new Set(userIds)];
  await tx.execute(sql`select pg_advisory_xact_lock(${REQUIREMENT_LOCKS}, k)
    from (select distinct hashtext(id::text) as k from ${uuidsIn(ids)} as ids(id) order by k) keys`);
  await tx.execute(sql`
    update sessions s set revoked_at = now()
    where s.user_id in ${uuidsIn(ids)}
      and s.revoked_at is null and s.expires_at > now() and not s.used_mfa
      and ${heldInRequiringTree(sql`s.user_id`)}`);
}

/**
 * REQUIRE_SYSTEM_ADMIN_MFA at start: system admins' sessions that did not prove the second factor end, so the
 * requirement holds for sessions opened before it was set. How many ended is answered for the start's log.
 */
export async function endSystemAdminSessionsWithoutMfa(db: Tx): Promise<number> {
  const ended = await rows<{ id: string }>(
    db,
    sql`update sessions s set revoked_at = now()
      where s.revoked_at is null and s.expires_at > now() and not s.used_mfa
        and exists (select 1 from users u where u.id = s.user_id and u.is_system_admin)
      returning s.id`,
  );
  return ended.length;
}

/** Has the account turned two-factor on (set up and confirmed)? */
export async function hasMfaOn(db: Tx, userId: string): Promise<boolean> {
  const [row] = await rows<{ on: boolean }>(
    db,
    sql`select exists (select 1 from user_mfa where user_id = ${userId} and enabled_at is not null) as on`,
  );
  return row?.on === true;
}
