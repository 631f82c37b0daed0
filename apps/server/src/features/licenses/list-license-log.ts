import type { LicenseAction, LicenseLogPage, LicenseLogQuery } from '@allot/domain/licenses';
import type { LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { cursorPage, decodePageToken } from '../../http/cursor';
import { requireOrganizationAccess } from '../organization-access';

/** GET /api/organization/{id}/license-log (needs manage_org_license): its licences' log, newest first, by cursor. */
export async function listLicenseLog(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: LicenseLogQuery,
): Promise<LicenseLogPage> {
  await requireOrganizationAccess(db, user, organizationId, ['manage_org_license']);
  const before = decodePageToken(query.pageToken);
  const found = await rows<{
    id: string;
    seq: string;
    created_at: Date | string;
    action: LicenseAction;
    license_id: string;
    license_type: LicenseType;
    seats: number;
    max_users_after: number;
    expire_at_after: Date | string;
    description: string;
    actor_id: string | null;
    actor_name: string | null;
    actor_email: string | null;
  }>(
    db,
    sql`select e.id, e.seq::text as seq, e.created_at, e.action, e.license_id, e.license_type, e.seats,
        e.max_users_after, e.expire_at_after, e.description, u.id as actor_id, u.name as actor_name,
        u.email as actor_email
      from license_events e left join users u on u.id = e.actor_id
      where e.organization_id = ${organizationId} ${before ? sql`and e.seq < ${before}::bigint` : sql``}
      order by e.seq desc limit ${query.limit + 1}`,
  );
  const { page, pagination } = cursorPage(found, query.limit);
  return {
    data: page.map((r) => ({
      id: r.id,
      date: new Date(r.created_at).toISOString(),
      action: r.action,
      licenseId: r.license_id,
      licenseType: r.license_type,
      seats: Number(r.seats),
      maxUsers: Number(r.max_users_after),
      expireAt: new Date(r.expire_at_after).toISOString(),
      description: r.description,
      by: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '', email: r.actor_email ?? '' } : null,
    })),
    pagination,
  };
}
