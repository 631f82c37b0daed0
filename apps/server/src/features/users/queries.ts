import type { LicenseType } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import type { OrganizationUser } from '@allot/domain/users';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';

/** The columns of a member as lists show it; joins `memberships m`, `users u`, credit account `a`, licence `l`. */
export const memberColumns = sql`u.id, u.name, u.email, u.locale, m.role, coalesce(a.balance, 0) as credits,
  l.id as license_id, l.license_type`;

export const memberJoins = sql`join users u on u.id = m.user_id
  left join credit_accounts a on a.user_id = u.id
  left join licenses l on l.id = m.license_id`;

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  locale: string;
  role: Role;
  credits: string | number | null;
  license_id: string | null;
  license_type: LicenseType | null;
}

export function toOrganizationUser(r: MemberRow): OrganizationUser {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    locale: r.locale,
    role: r.role,
    credits: Number(r.credits ?? 0),
    licence: r.license_id && r.license_type ? { id: r.license_id, licenseType: r.license_type } : null,
  };
}

/** These users as members of the organization, in the order of `userIds` (missing ones left out). */
export async function findMembers(
  tx: Tx,
  organizationId: string,
  userIds: readonly string[],
): Promise<OrganizationUser[]> {
  if (userIds.length === 0) return [];
  const found = await rows<MemberRow>(
    tx,
    sql`select ${memberColumns} from memberships m ${memberJoins}
        where m.organization_id = ${organizationId}
          and m.user_id in ${uuidsIn(userIds)}`,
  );
  const byId = new Map(found.map((r) => [r.id, toOrganizationUser(r)]));
  return userIds.flatMap((id) => byId.get(id) ?? []);
}
