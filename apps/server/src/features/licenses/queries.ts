import type { License, LicenseType } from '@allot/domain/organizations';
import { type SQL, sql } from 'drizzle-orm';

export type LicenseRow = {
  id: string;
  organization_id: string;
  license_type: string;
  expire_at: string | Date;
  max_users: number;
  used_seats: number | string;
  metadata: Record<string, unknown> | null;
  expired: boolean;
  handed_down: number | string;
  source_license_id: string | null;
  source_organization_id: string | null;
  source_organization_name: string | null;
};

/** The seats in use of licence `l`: its members' and its pending invitations' (a subquery). */
export const usedSeatsSql = sql`((select count(*) from memberships m where m.license_id = l.id)
  + (select count(*) from membership_invitations i where i.license_id = l.id))`;

/** Every column of `toLicense` for licence `l` (the source's licence and organization: `sl`, `so`). */
export const licenseColumns = sql`l.id, l.organization_id, l.license_type, l.expire_at, l.max_users, l.metadata,
  ${usedSeatsSql} as used_seats, l.expire_at <= now() as expired,
  (with recursive below as (
      select b.id, b.max_users from licenses b where b.source_license_id = l.id
      union all select c.id, c.max_users from licenses c join below on c.source_license_id = below.id)
    select coalesce(sum(max_users), 0) from below) as handed_down,
  sl.id as source_license_id, so.id as source_organization_id, so.name as source_organization_name`;
export const licenseSourceJoins = sql`left join licenses sl on sl.id = l.source_license_id
  left join organizations so on so.id = sl.organization_id`;

/** An organization's licences with the seats in use, as a JSON array (to embed in a larger read). */
export function organizationLicensesJson(organizationId: string | SQL): SQL {
  return sql`(select coalesce(json_agg(l order by l.license_type), '[]'::json) from (
    select ${licenseColumns} from licenses l ${licenseSourceJoins}
    where l.organization_id = ${organizationId}) l)`;
}

export function toLicense(r: LicenseRow): License {
  return {
    id: r.id,
    organizationId: r.organization_id,
    licenseType: r.license_type as LicenseType,
    expireAt: new Date(r.expire_at).toISOString(),
    maxUsers: Number(r.max_users),
    usedSeats: Number(r.used_seats),
    metadata: r.metadata ?? {},
    expired: r.expired,
    handedDown: Number(r.handed_down),
    source:
      r.source_license_id && r.source_organization_id
        ? {
            licenseId: r.source_license_id,
            organizationId: r.source_organization_id,
            organizationName: r.source_organization_name ?? '',
          }
        : null,
  };
}
