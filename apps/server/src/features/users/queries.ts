import type { LicenseType } from '@allot/domain/organizations';
import type { Role } from '@allot/domain/roles';
import type { MemberStatus, OrganizationUser } from '@allot/domain/users';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { pendingEmailSql } from './change-email';

/**
 * The people of one organization as its lists show them, as a relation to name `p`: its members, then
 * the accounts invited to it (CONTRACT §3: what the inviter typed, named by the invitation's id, nothing of the
 * account; the credits held for them in this organization, CONTRACT §6).
 * Both kinds of invitation read `pending` alike, a new account that has not set itself up yet and an
 * account that existed and has not accepted: the inviter cannot tell whether an address had an account.
 * A UNION ALL in FROM: PostgreSQL pushes a filter on `p` into both halves.
 */
export function peopleOf(organizationId: string): SQL {
  return sql`(
    select u.id, u.name, u.email, u.locale, m.role, coalesce(a.balance, 0) as credits, m.license_id,
      case when u.email_verified_at is null then 'pending' else 'active' end as status, u.search_text
    from memberships m join users u on u.id = m.user_id
    left join credit_accounts a on a.kind = 'user' and a.organization_id = m.organization_id and a.user_id = m.user_id
    where m.organization_id = ${organizationId}
    union all
    select i.id, i.invited_name, i.invited_email, 'en-us', i.role, coalesce(a.balance, 0), i.license_id, 'pending',
      search_marked_user(i.invited_name, i.invited_email)
    from membership_invitations i
    left join credit_accounts a on a.kind = 'user' and a.organization_id = i.organization_id and a.user_id = i.user_id
    where i.organization_id = ${organizationId})`;
}

/**
 * `peopleOf` for every live organization of a subtree (CONTRACT §6 `scope=subtree`), or for one organization of
 * it (`only`), each row with its organization (`organization_id`, `organization_name`): a person in two
 * organizations of the subtree is two rows.
 */
export function peopleOfSubtree(rootId: string, only: string | null): SQL {
  const organizations = sql`(select o.id, o.name from organization_closure c join organizations o on o.id = c.descendant_id
    where c.ancestor_id = ${rootId} and o.deleted_at is null ${only ? sql`and o.id = ${only}` : sql``})`;
  return sql`(
    select u.id, u.name, u.email, u.locale, m.role, coalesce(a.balance, 0) as credits, m.license_id,
      case when u.email_verified_at is null then 'pending' else 'active' end as status, u.search_text,
      o.id as organization_id, o.name as organization_name
    from ${organizations} o join memberships m on m.organization_id = o.id join users u on u.id = m.user_id
    left join credit_accounts a on a.kind = 'user' and a.organization_id = m.organization_id and a.user_id = m.user_id
    union all
    select i.id, i.invited_name, i.invited_email, 'en-us', i.role, coalesce(a.balance, 0), i.license_id, 'pending',
      search_marked_user(i.invited_name, i.invited_email), o.id, o.name
    from ${organizations} o join membership_invitations i on i.organization_id = o.id
    left join credit_accounts a on a.kind = 'user' and a.organization_id = i.organization_id and a.user_id = i.user_id)`;
}

/** The columns of a person of `p` as lists show them; the licence and an email change looked up per row. */
export const personColumns = sql`p.id, p.name, p.email, p.locale, p.role, p.credits, p.status,
  l.id as license_id, l.license_type, l.expire_at as license_expire_at,
  case when p.status = 'active' then ${pendingEmailSql(sql`p.id`)} end as pending_email`;

export const personJoins = sql`left join licenses l on l.id = p.license_id`;

export interface PersonRow {
  id: string;
  name: string;
  email: string;
  locale: string;
  role: Role;
  credits: string | number | null;
  status: MemberStatus;
  license_id: string | null;
  license_type: LicenseType | null;
  license_expire_at: Date | string | null;
  pending_email: string | null;
  /** A subtree list's rows only. */
  organization_id?: string;
  organization_name?: string;
}

export function toOrganizationUser(r: PersonRow): OrganizationUser {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    locale: r.locale,
    role: r.role,
    credits: Number(r.credits ?? 0),
    licence:
      r.license_id && r.license_type && r.license_expire_at
        ? {
            id: r.license_id,
            licenseType: r.license_type,
            expireAt: new Date(r.license_expire_at).toISOString(),
            entitled: new Date(r.license_expire_at).getTime() > Date.now(),
          }
        : null,
    status: r.status,
    pendingEmail: r.pending_email,
    ...(r.organization_id && r.organization_name !== undefined
      ? { organization: { id: r.organization_id, name: r.organization_name } }
      : {}),
  };
}

/** These people of the organization (members or invited), in the order of `userIds` (others left out). */
export async function findMembers(
  tx: Tx,
  organizationId: string,
  userIds: readonly string[],
): Promise<OrganizationUser[]> {
  if (userIds.length === 0) return [];
  const found = await rows<PersonRow>(
    tx,
    sql`select ${personColumns} from ${peopleOf(organizationId)} p ${personJoins}
        where p.id in ${uuidsIn(userIds)}`,
  );
  const byId = new Map(found.map((r) => [r.id, toOrganizationUser(r)]));
  return userIds.flatMap((id) => byId.get(id) ?? []);
}
