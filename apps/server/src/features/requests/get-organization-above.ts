import { LICENSE_TYPES } from '@allot/domain/organizations';
import type { OrganizationAbove } from '@allot/domain/requests';
import { hasAnyPermission } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { freeSeatTypesOf } from '../licenses';
import { requireOrganizationAccess } from '../organization-access';
import { decidersOf } from './deciders';
import { DECIDING_PERMISSIONS } from './list-requests';

/**
 * GET /api/organization/{id}/above (an addition to CONTRACT §11, decision 017), for whoever manages `{id}`: the
 * organization it would ask, who decides there (names, emails, roles), whether it has a free seat of each type
 * (so the web offers to ask for seats when `{id}`'s are full), and the open requests asked of `{id}` itself.
 */
export async function readOrganizationAbove(
  db: Db,
  user: AuthUser,
  organizationId: string,
): Promise<OrganizationAbove> {
  const access = await requireOrganizationAccess(db, user, organizationId);
  const [found] = await rows<{ id: string | null; name: string | null; open: number | string }>(
    db,
    sql`select p.id, p.name,
        (select count(*) from organization_requests r
          where r.parent_organization_id = o.id and r.status = 'open') as open
      from organizations o left join organizations p on p.id = o.parent_id and p.deleted_at is null
      where o.id = ${organizationId}`,
  );
  const parent = found?.id ? { id: found.id, name: found.name ?? '' } : null;
  const free = parent ? await freeSeatTypesOf(db, parent.id) : new Set<string>();
  const managers = parent ? await decidersOf(db, parent.id) : [];
  return {
    parent,
    managers: managers.map((m) => ({ name: m.name, email: m.email, role: m.role })),
    freeSeats: Object.fromEntries(LICENSE_TYPES.map((type) => [type, free.has(type)])) as Record<
      (typeof LICENSE_TYPES)[number],
      boolean
    >,
    openRequests: hasAnyPermission(DECIDING_PERMISSIONS, access) ? Number(found?.open ?? 0) : 0,
  };
}
