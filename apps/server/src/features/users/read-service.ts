import type { LicenseType } from '@allot/domain/organizations';
import { buildPagination, type PaginationQuery } from '@allot/domain/pagination';
import type { Role } from '@allot/domain/roles';
import type { ORGANIZATION_USER_SORT_KEYS, USER_SEARCH_SORT_KEYS } from '@allot/domain/users';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import { containsPattern } from '../../lib/search';
import type { AuthUser } from '../auth/sessions';
import { requireOrganizationAccess } from '../organizations/access';
import { managedRoots, uuidLiterals } from '../organizations/queries';

const searchFilter = (search: string): SQL =>
  search.trim()
    ? sql`and (u.name ilike ${containsPattern(search)} or u.email ilike ${containsPattern(search)})`
    : sql``;

const direction = (order: 'asc' | 'desc') => (order === 'desc' ? sql`desc` : sql`asc`);

/** Members of one organization with their role there, credits and licence seat (needs manage_users). */
export async function listOrganizationUsers(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: PaginationQuery<(typeof ORGANIZATION_USER_SORT_KEYS)[number]>,
) {
  await requireOrganizationAccess(db, user, organizationId, ['manage_users']);
  const filter = sql`m.organization_id = ${organizationId} ${searchFilter(query.search)}`;
  const [counted] = await rows<{ total: string | number }>(
    db,
    sql`select count(*) as total from memberships m join users u on u.id = m.user_id where ${filter}`,
  );
  const total = Number(counted?.total ?? 0);
  const sortBy: Record<typeof query.key, SQL> = {
    name: sql`u.name`,
    email: sql`lower(u.email)`,
    role: sql`case m.role when 'organization_owner' then 1 when 'organization_admin' then 2 else 3 end`,
    credits: sql`coalesce(a.balance, 0)`,
  };
  const page = await rows<{
    id: string;
    name: string;
    email: string;
    locale: string;
    role: Role;
    credits: string | number | null;
    license_id: string | null;
    license_type: LicenseType | null;
  }>(
    db,
    sql`select u.id, u.name, u.email, u.locale, m.role, coalesce(a.balance, 0) as credits,
          l.id as license_id, l.license_type
        from memberships m
        join users u on u.id = m.user_id
        left join credit_accounts a on a.user_id = u.id
        left join licenses l on l.id = m.license_id
        where ${filter}
        order by ${sortBy[query.key]} ${direction(query.order)}, u.id
        limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
  );
  return {
    data: page.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      locale: r.locale,
      role: r.role,
      credits: Number(r.credits ?? 0),
      licence: r.license_id && r.license_type ? { id: r.license_id, licenseType: r.license_type } : null,
    })),
    pagination: buildPagination(query, total),
  };
}

/**
 * Users who belong to an organization in the caller's subtrees (a system admin: every user), each with
 * the visible organizations they belong to.
 */
export async function searchUsers(
  db: Db,
  user: AuthUser,
  query: PaginationQuery<(typeof USER_SEARCH_SORT_KEYS)[number]>,
) {
  // The organizations where the caller is owner or admin: their subtrees are what it sees.
  const roots = user.isSystemAdmin ? [] : await managedRoots(db, user.userId);
  if (!user.isSystemAdmin && roots.length === 0) return { data: [], pagination: buildPagination(query, 0) };
  const rootList = uuidLiterals(roots);
  const inScope = (membership: SQL) =>
    user.isSystemAdmin
      ? sql`true`
      : sql`exists (select 1 from organization_closure c
            where c.descendant_id = ${membership} and c.ancestor_id in (${rootList}))`;
  // With search text, the trigram indexes find the candidates first and each is checked against the
  // scope (OFFSET 0 keeps that a per-candidate index probe instead of a join over every membership).
  // Without it, the candidates are the members of the caller's subtrees.
  const search = query.search.trim();
  const candidates = search
    ? sql`select u.id, u.name, u.email from users u where true ${searchFilter(query.search)}`
    : user.isSystemAdmin
      ? sql`select u.id, u.name, u.email from users u`
      : sql`select u.id, u.name, u.email from users u where u.id in (
            select m.user_id from memberships m join organization_closure c on c.descendant_id = m.organization_id
            where c.ancestor_id in (${rootList}))`;
  const scoped =
    user.isSystemAdmin || !search
      ? sql`select * from candidates`
      : sql`select * from candidates u where exists (select 1 from memberships m
            where m.user_id = u.id and ${inScope(sql`m.organization_id`)} offset 0)`;
  const [counted] = await rows<{ total: string | number }>(
    db,
    sql`with candidates as materialized (${candidates}) select count(*) as total from (${scoped}) s`,
  );
  const total = Number(counted?.total ?? 0);
  const sortBy = query.key === 'email' ? sql`lower(s.email)` : sql`s.name`;
  const page = await rows<{
    id: string;
    name: string;
    email: string;
    organizations: { id: string; name: string; role: Role }[] | null;
  }>(
    db,
    sql`with candidates as materialized (${candidates})
        select s.id, s.name, s.email,
          (select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'role', m.role) order by o.name), '[]'::json)
           from memberships m join organizations o on o.id = m.organization_id
           where m.user_id = s.id and ${inScope(sql`m.organization_id`)}) as organizations
        from (${scoped}) s
        order by ${sortBy} ${direction(query.order)}, s.id
        limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
  );
  return {
    data: page.map((r) => ({ id: r.id, name: r.name, email: r.email, organizations: r.organizations ?? [] })),
    pagination: buildPagination(query, total),
  };
}
