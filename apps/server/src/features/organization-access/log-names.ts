import type { PersonInLog } from '@allot/domain/log-people';
import { APP_MSG } from '@allot/domain/messages';
import { type SQL, sql } from 'drizzle-orm';

/**
 * Whether a log of `organizationId` may name the person `personId` (CONTRACT §5: logs name only people of the
 * subtree): a member of an organization of its subtree, or of one above it (their role reaches the subtree), or
 * a system admin (whose role reaches everywhere). Anyone else (another tenant's people, a former member) the
 * log shows as someone outside this organization. Three index probes.
 */
export function namedInLogOfSql(personId: SQL, organizationId: string): SQL {
  return sql`(exists (select 1 from users s where s.id = ${personId} and s.is_system_admin)
    or exists (select 1 from memberships m join organization_closure c on c.descendant_id = m.organization_id
               where m.user_id = ${personId} and c.ancestor_id = ${organizationId}::uuid)
    or exists (select 1 from memberships m join organization_closure c on c.ancestor_id = m.organization_id
               where m.user_id = ${personId} and c.descendant_id = ${organizationId}::uuid))`;
}

/** The actor as a log names them (CONTRACT §5): by name inside the subtree, else as someone outside it. */
export function personInLog(r: {
  actor_id: string | null;
  actor_named: boolean | null;
  actor_name: string | null;
  actor_email: string | null;
}): PersonInLog | null {
  if (!r.actor_id) return null;
  if (!r.actor_named) return { id: null, name: APP_MSG.someoneOutside, email: null };
  return { id: r.actor_id, name: r.actor_name ?? '', email: r.actor_email ?? '' };
}
