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
  userId: string;
  name: string;
  role: MemberRole;
  licenseId: string | null;
}

/**
 * Locks the memberships of these users in the organization for the rest of the transaction. `404` when
 * one of them is not a member there (or not an id at all): the caller may not learn about other accounts.
 */
export async function lockMembers(
  tx: Tx,
  organizationId: string,
  userIds: readonly string[],
): Promise<LockedMember[]> {
  const unique = [...new Set(userIds)];
  if (!unique.every(isUuid)) throw AppError.notFound();
  const locked = await rows<{ user_id: string; name: string; role: MemberRole; license_id: string | null }>(
    tx,
    sql`select m.user_id, u.name, m.role, m.license_id from memberships m join users u on u.id = m.user_id
        where m.organization_id = ${organizationId}
          and m.user_id in ${uuidsIn(unique)}
        order by m.user_id for update of m`,
  );
  if (locked.length !== unique.length) throw AppError.notFound();
  return locked.map((m) => ({ userId: m.user_id, name: m.name, role: m.role, licenseId: m.license_id }));
}

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
