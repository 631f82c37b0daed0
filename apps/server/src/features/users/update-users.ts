import { APP_MSG, MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL } from '@allot/domain/organizations';
import { hasPermissions, permissionsOf, ROLE_RANK } from '@allot/domain/roles';
import type {
  MemberRole,
  OrganizationUser,
  UpdateUserLicensesRequest,
  UpdateUserRequest,
  UserAccount,
  UserEditRights,
} from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { changedFields } from '../audit';
import { freeSeats, lockOrganizationSeats, unknownLicense } from '../licenses';
import type { MailSettings } from '../mail';
import { effectiveRole, requireOrganizationAccess } from '../organization-access';
import { pendingEmailOf, requestEmailChange } from './change-email';
import { auditMemberChanges } from './member-audit';
import { lockMembers, peopleTable, requireNotAbove } from './member-guards';
import { findMembers } from './queries';

type Held = { organization_id: string; role: MemberRole };

/**
 * The caller's standing towards each place an account is held (memberships or invitations): null where
 * the caller cannot see it; whether it manages the person there (manage_users, its role not below theirs),
 * and whether it outranks them.
 */
async function standingOver(db: Db, user: AuthUser, held: readonly Held[]) {
  return Promise.all(
    held.map(async (m) => {
      const role = await effectiveRole(db, user, m.organization_id);
      if (role === null || role === 'user') return null;
      const manages = hasPermissions(['manage_users'], { role, permissions: permissionsOf(role) });
      return {
        organizationId: m.organization_id,
        manages: manages && ROLE_RANK[m.role] >= ROLE_RANK[role],
        outranks: manages && ROLE_RANK[m.role] > ROLE_RANK[role],
      };
    }),
  );
}

type Reach = { kind: 'account' } | { kind: 'invitations'; organizationIds: string[] };
/** Why the caller may not change a part of the account (the refusal's text), or null: it may. */
type Refusal = string | null;

/**
 * How far the caller reaches an account. Through its memberships: the account itself, decided over every
 * organization it is a member of (an account may belong to several, and one admin must not take over an
 * account another organization relies on): its name where the caller manages all of them; its email only
 * where the caller outranks it in all of them (CONTRACT §3), since an email decides who receives the
 * account's reset codes. Through invitations only: what the caller typed when inviting, nothing of the
 * account, and never the address the invitation went to. `404` when the caller sees neither.
 */
async function reachOf(
  db: Tx,
  user: AuthUser,
  target: Target,
): Promise<{ reach: Reach; name: Refusal; email: Refusal }> {
  if (target.invitation) {
    // An invitation (named by its own id, CONTRACT §3): what the caller typed, in that organization.
    const [standing] = await standingOver(db, user, [
      { organization_id: target.invitation.organizationId, role: target.invitation.role },
    ]);
    if (!standing) throw AppError.notFound();
    const reach: Reach = { kind: 'invitations', organizationIds: [standing.organizationId] };
    if (!standing.manages) return { reach, name: APP_MSG.strongerMember, email: APP_MSG.strongerMember };
    return { reach, name: null, email: APP_MSG.invitedAddressFixed };
  }
  // A new account not set up yet keeps the address its invitation went to, unless it changes it itself.
  const addressFixed = target.set_up || target.id === user.userId ? null : APP_MSG.invitedAddressFixed;
  if (target.id === user.userId || user.isSystemAdmin) {
    return { reach: { kind: 'account' }, name: null, email: addressFixed };
  }
  const memberships = await rows<Held>(
    db,
    sql`select organization_id, role from memberships where user_id = ${target.id}`,
  );
  const standing = await standingOver(db, user, memberships);
  if (standing.every((s) => s === null)) throw AppError.notFound();
  const reach = { kind: 'account' } as const;
  if (target.is_system_admin || standing.some((s) => s !== null && !s.manages)) {
    return { reach, name: APP_MSG.strongerMember, email: APP_MSG.strongerMember };
  }
  if (standing.some((s) => s === null)) {
    return { reach, name: APP_MSG.accountManagedElsewhere, email: APP_MSG.accountManagedElsewhere };
  }
  if (!standing.every((s) => s?.outranks)) return { reach, name: null, email: APP_MSG.emailChangeNotAllowed };
  return { reach, name: null, email: addressFixed };
}

interface Target {
  /** The account. */
  id: string;
  email: string;
  is_system_admin: boolean;
  set_up: boolean;
  /** Named by an invitation's id: that invitation. */
  invitation?: { id: string; organizationId: string; role: MemberRole };
}

/** The person an id names: an account (a member) or an invitation (CONTRACT §3); `404` for neither. */
async function findTarget(db: Tx, id: string): Promise<Target> {
  if (!isUuid(id)) throw AppError.notFound();
  const [target] = await rows<
    Target & { invitation_id: string | null; organization_id: string | null; role: MemberRole | null }
  >(
    db,
    sql`select u.id, u.email, u.is_system_admin, u.email_verified_at is not null as set_up,
          i.id as invitation_id, i.organization_id, i.role
        from users u left join membership_invitations i on i.id = ${id} and i.user_id = u.id
        where u.id = ${id} or u.id = (select user_id from membership_invitations where id = ${id})`,
  );
  if (!target) throw AppError.notFound();
  const { invitation_id, organization_id, role, ...account } = target;
  return invitation_id && organization_id && role
    ? { ...account, invitation: { id: invitation_id, organizationId: organization_id, role } }
    : account;
}

/**
 * GET /api/user/{id}/edit-rights: what the caller may change of the account, asked before the edit dialog
 * opens so that it offers only that (with the reason for the rest), never a form the server refuses.
 */
export async function getUserEditRights(db: Db, user: AuthUser, userId: string): Promise<UserEditRights> {
  const { name, email } = await reachOf(db, user, await findTarget(db, userId));
  return { canChangeName: name === null, canChangeEmail: email === null, reason: name ?? email };
}

/**
 * POST /api/user/{id}/update: name and locale change at once; a new email only asks for the change
 * (a code to the new address, a notice to the old one: `pendingEmail` until the code is entered). A new
 * spelling of the same address (its case) is no change of address and applies at once.
 *
 * A person invited and not in yet (a new account not set up, or an invitation of an account that existed:
 * both read alike) keeps the address the invitation went to (`422`: cancel and invite the right one); the
 * name changes, of the account or of what the caller typed.
 */
export async function updateUser(
  tx: Tx,
  user: AuthUser,
  userId: string,
  input: UpdateUserRequest,
  mail: MailSettings,
): Promise<UserAccount> {
  const target = await findTarget(tx, userId);
  const { reach, name, email } = await reachOf(tx, user, target);
  if (name) throw AppError.forbidden(name);
  const changesEmail = input.email.toLowerCase() !== target.email.toLowerCase();
  if (changesEmail && email === APP_MSG.emailChangeNotAllowed) throw AppError.forbidden(email);
  const invitedAddressFixed = () => AppError.of('business_rule', APP_MSG.invitedAddressFixed);

  if (reach.kind === 'invitations') {
    const typedBefore = await rows<{ organization_id: string; invited_name: string }>(
      tx,
      sql`select organization_id, invited_name from membership_invitations
          where user_id = ${target.id} and organization_id in ${uuidsIn(reach.organizationIds)} for update`,
    );
    const [typed] = await rows<{ invited_email: string }>(
      tx,
      sql`update membership_invitations set invited_name = ${input.name}, updated_at = now()
          where user_id = ${target.id} and organization_id in ${uuidsIn(reach.organizationIds)}
          returning invited_email`,
    );
    if (!typed) throw AppError.notFound();
    if (input.email.toLowerCase() !== typed.invited_email.toLowerCase()) throw invitedAddressFixed();
    for (const t of typedBefore) {
      await auditMemberChanges(
        tx,
        { organizationId: t.organization_id, actorId: user.userId, action: 'member_updated' },
        [{ userId: target.id, before: { name: t.invited_name }, after: { name: input.name } }],
      );
    }
    return {
      id: userId,
      name: input.name,
      email: typed.invited_email,
      locale: 'en-us',
      pendingEmail: null,
    };
  }
  const newAddress = input.email.toLowerCase() !== target.email.toLowerCase();
  if (newAddress && !target.set_up && userId !== user.userId) throw invitedAddressFixed();
  const [old] = await rows<{ name: string; locale: string; email: string }>(
    tx,
    sql`select name, locale, email from users where id = ${userId} for update`,
  );
  const [row] = await rows<{ id: string; name: string; email: string; locale: string }>(
    tx,
    sql`update users set name = ${input.name}, locale = ${input.locale},
          email = ${newAddress ? sql`email` : sql`${input.email}`}, updated_at = now()
        where id = ${userId} returning id, name, email, locale`,
  );
  if (!row) throw AppError.notFound();
  if (newAddress) {
    await requestEmailChange(
      tx,
      { userId, name: row.name, currentEmail: row.email, newEmail: input.email, requestedBy: user },
      mail,
    );
  }
  if (old) await auditAccountChange(tx, user, userId, old, row, newAddress ? input.email : null);
  return { ...row, pendingEmail: await pendingEmailOf(tx, userId) };
}

/**
 * A change of an account, in the log of every organization it is a member of (each sees the person). An
 * address change is only asked for here: the entry says which address was asked for.
 */
async function auditAccountChange(
  tx: Tx,
  user: AuthUser,
  userId: string,
  old: { name: string; locale: string; email: string },
  now: { name: string; locale: string; email: string },
  emailAskedFor: string | null,
) {
  const change = changedFields(
    { name: old.name, locale: old.locale, email: old.email },
    { name: now.name, locale: now.locale, email: now.email },
  ) ?? { before: {}, after: {} };
  if (emailAskedFor) {
    change.before.email = old.email;
    change.after.emailChangeRequestedTo = emailAskedFor;
  }
  if (Object.keys(change.after).length === 0) return;
  const memberOf = await rows<{ organization_id: string }>(
    tx,
    sql`select organization_id from memberships where user_id = ${userId}`,
  );
  for (const m of memberOf) {
    await auditMemberChanges(
      tx,
      { organizationId: m.organization_id, actorId: user.userId, action: 'member_updated' },
      [{ userId, before: change.before, after: change.after }],
    );
  }
}

/**
 * POST /api/user/update/licenses (CONTRACT §6): moves these members onto one licence of the organization.
 * Members already on it keep their seat; the others need free seats of it, else `422` and nothing moves.
 */
export async function updateUserLicenses(
  tx: Tx,
  user: AuthUser,
  input: UpdateUserLicensesRequest,
): Promise<OrganizationUser[]> {
  const access = await requireOrganizationAccess(tx, user, input.organizationId, ['manage_users']);
  const userIds = [...new Set(input.userIds)];
  const licenses = await lockOrganizationSeats(tx, input.organizationId);
  const license = licenses.find((l) => l.id === input.licenseId);
  if (!license) throw unknownLicense();
  const members = await lockMembers(tx, input.organizationId, userIds);
  requireNotAbove(access.role, members);
  const moving = members.filter((m) => m.licenseId !== license.id);
  if (moving.length > freeSeats(license)) {
    throw AppError.of('business_rule', MSG.notEnoughLicenses(LICENSE_TYPE_LABEL[license.licenseType]));
  }
  for (const kind of ['member', 'invitation'] as const) {
    const ids = moving.filter((m) => m.kind === kind).map((m) => m.userId);
    if (ids.length === 0) continue;
    await tx.execute(sql`update ${peopleTable(kind)} set license_id = ${license.id}, updated_at = now()
      where organization_id = ${input.organizationId} and user_id in ${uuidsIn(ids)}`);
  }
  const typeOf = new Map(licenses.map((l) => [l.id, l.licenseType]));
  await auditMemberChanges(
    tx,
    { organizationId: input.organizationId, actorId: user.userId, action: 'member_licence_changed' },
    moving.map((m) => ({
      userId: m.userId,
      before: { licence: m.licenseId ? (typeOf.get(m.licenseId) ?? null) : null },
      after: { licence: license.licenseType },
    })),
  );
  return findMembers(tx, input.organizationId, userIds);
}

/**
 * `404` unless the caller sees the account: its own, any for a system admin, else through a membership or
 * invitation in an organization it manages (the reach of the calls above).
 */
export async function requireVisibleAccount(db: Tx, user: AuthUser, userId: string): Promise<void> {
  await reachOf(db, user, await findTarget(db, userId));
}
