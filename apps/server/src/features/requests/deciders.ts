import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';

export interface Decider {
  id: string;
  name: string;
  email: string;
  role: 'organization_owner' | 'organization_admin';
}

/**
 * Who decides the requests asked of an organization, and gets their mail: its owners and admins with a confirmed
 * account. An organization run only from above (no owner or admin of its own) has them at the nearest
 * organization above it that has some, not every admin up to the root (decision 017). Owners first, then by name.
 */
export function decidersOf(tx: Tx, organizationId: string): Promise<Decider[]> {
  return rows<Decider>(
    tx,
    sql`with managers as (
        select u.id, u.name, u.email, m.role, c.depth from organization_closure c
        join memberships m on m.organization_id = c.ancestor_id
          and m.role in ${MANAGING_ROLES_SQL}
        join users u on u.id = m.user_id and u.email_verified_at is not null
        where c.descendant_id = ${organizationId})
      select id, name, email, role from managers where depth = (select min(depth) from managers)
      order by role = 'organization_owner' desc, name, email`,
  );
}

/**
 * The person who asked, to tell of the decision: while they still manage the asking organization (someone who
 * left it is told nothing more of it). Null otherwise.
 */
export async function askerToTell(
  tx: Tx,
  userId: string | null,
  organizationId: string,
): Promise<{ name: string; email: string } | null> {
  if (!userId) return null;
  const [found] = await rows<{ name: string; email: string }>(
    tx,
    sql`select u.name, u.email from users u where u.id = ${userId}
      and (u.is_system_admin or exists (
        select 1 from organization_closure c
        join memberships m on m.organization_id = c.ancestor_id and m.user_id = u.id
          and m.role in ${MANAGING_ROLES_SQL}
        where c.descendant_id = ${organizationId}))`,
  );
  return found ?? null;
}
