import { APP_MSG } from '@allot/domain/messages';
import { ROLE_RANK, type Role } from '@allot/domain/roles';
import type { MemberRole } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import { isUuid } from '../../lib/ids';

export interface LockedMember {
  /** How the organization's answers name the person: a member's user id, an invitation's own id. */
  id: string;
  /** The account. */
  userId: string;
  name: string;
  role: MemberRole;
  licenseId: string | null;
  /** A membership, or an invitation of an account that existed (its name as the inviter typed it). */
  kind: 'member' | 'invitation';
}

/**
 * Locks these people of the organization, members (named by their user id) and invited accounts (named by the
 * invitation's id, CONTRACT §3) alike, for the rest of the transaction (memberships, then invitations, each in
 * user id order). `404` when one of them is neither (or not an id at all): the caller may not learn about
 * other accounts. Calls that change a person treat both kinds alike, so that none tells an invited account
 * that existed from a new one.
 */
export async function lockMembers(
  tx: Tx,
  organizationId: string,
  ids: readonly string[],
): Promise<LockedMember[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (!unique.every(isUuid)) throw AppError.notFound();
  type Row = { id: string; user_id: string; name: string; role: MemberRole; license_id: string | null };
  const members = await rows<Row>(
    tx,
    sql`select m.user_id as id, m.user_id, u.name, m.role, m.license_id
        from memberships m join users u on u.id = m.user_id
        where m.organization_id = ${organizationId}
          and m.user_id in ${uuidsIn(unique)}
        order by m.user_id for update of m`,
  );
  const invited = await rows<Row>(
    tx,
    sql`select id, user_id, invited_name as name, role, license_id from membership_invitations
        where organization_id = ${organizationId} and id in ${uuidsIn(unique)}
        order by user_id for update`,
  );
  if (members.length + invited.length !== unique.length) throw AppError.notFound();
  const locked = (r: Row, kind: LockedMember['kind']): LockedMember => ({
    id: r.id,
    userId: r.user_id,
    name: r.name,
    role: r.role,
    licenseId: r.license_id,
    kind,
  });
  return [...members.map((m) => locked(m, 'member')), ...invited.map((i) => locked(i, 'invitation'))];
}

/** The table that holds a person of this kind. */
export const peopleTable = (kind: LockedMember['kind']) =>
  kind === 'member' ? sql`memberships` : sql`membership_invitations`;

/** A caller changes only members whose role is not above its own (an admin never touches the owner). */
export function requireNotAbove(callerRole: Role, members: readonly { role: MemberRole }[]): void {
  if (members.some((m) => ROLE_RANK[m.role] < ROLE_RANK[callerRole])) {
    throw AppError.forbidden(APP_MSG.strongerMember);
  }
}

/** Roles a caller may give (CONTRACT §2): its own rank and lower; owner only from an owner or system admin. */
export function requireAssignable(callerRole: Role, role: MemberRole): void {
  if (role === 'organization_owner' && ROLE_RANK[callerRole] > ROLE_RANK.organization_owner) {
    throw AppError.forbidden(APP_MSG.onlyOwnerMakesOwner);
  }
  if (ROLE_RANK[role] < ROLE_RANK[callerRole]) throw AppError.forbidden(APP_MSG.roleTooHigh);
}
