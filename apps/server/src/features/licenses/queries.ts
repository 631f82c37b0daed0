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
};

/** The seats in use of licence `l`: its members' and its pending invitations' (a subquery). */
export const usedSeatsSql = sql`((select count(*) from memberships m where m.license_id = l.id)
  + (select count(*) from membership_invitations i where i.license_id = l.id))`;

/** An organization's licences with the seats in use, as a JSON array (to embed in a larger read). */
export function organizationLicensesJson(organizationId: string): SQL {
  return sql`(select coalesce(json_agg(l order by l.license_type), '[]'::json) from (
    select l.id, l.organization_id, l.license_type, l.expire_at, l.max_users, l.metadata,
      ${usedSeatsSql} as used_seats
    from licenses l where l.organization_id = ${organizationId}) l)`;
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
  };
}
