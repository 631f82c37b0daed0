import { IDLE_SEAT_DAYS, IDLE_SEAT_LIST_LIMIT, type LicenseUsage } from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { requireOrganizationAccess } from '../organization-access';

/**
 * Seat use of an organization's own licences (issue 16 item 2; decision 014, "Seat use"). Needs
 * `view_audit_logs`, like every call of CONTRACT §10.
 */
const PERMISSION = ['view_audit_logs'] as const;

type DayRow = { license_id: string; date: string; used: number | string; max_users: number | string };
type IdleRow = {
  license_id: string;
  id: string;
  name: string;
  email: string;
  last_used_on: string | null;
  total: number | string;
};

export async function getLicenseUsage(
  db: Db,
  user: AuthUser,
  organizationId: string,
  days: number,
): Promise<LicenseUsage> {
  await requireOrganizationAccess(db, user, organizationId, PERMISSION);
  const [bounds] = await rows<{ from: string; to: string }>(
    db,
    sql`select to_char(d - ${days - 1}::int, 'YYYY-MM-DD') as from, to_char(d, 'YYYY-MM-DD') as to
        from (select (now() at time zone 'UTC')::date as d) today`,
  );
  if (!bounds) throw new Error('no date from the database');
  const licenses = await rows<{ id: string; license_type: string }>(
    db,
    sql`select id, license_type from licenses where organization_id = ${organizationId}
        order by license_type, id`,
  );
  // Each day takes the last row on or before it: a day without a change kept the figures it had. A day
  // before the licence's first row is left out (no figure was kept for it).
  const dayRows = await rows<DayRow>(
    db,
    sql`select l.id as license_id, to_char(s.day, 'YYYY-MM-DD') as date, r.used, r.max_users
        from licenses l
        cross join (select d::date as day from generate_series(${bounds.from}::date, ${bounds.to}::date,
          interval '1 day') d) s
        join lateral (select x.used, x.max_users from license_seat_days x
          where x.license_id = l.id and x.day <= s.day order by x.day desc limit 1) r on true
        where l.organization_id = ${organizationId}
        order by l.id, s.day`,
  );
  // Idle: a member for IDLE_SEAT_DAYS days or more, holding a seat, with no consumption in this organization
  // on the last IDLE_SEAT_DAYS UTC days (today included). Never used first, then the longest idle.
  const idleRows = await rows<IdleRow>(
    db,
    sql`select license_id, id, name, email, last_used_on, total from (
          select l.id as license_id, u.id, u.name, u.email,
            to_char(c.last_consumed_on, 'YYYY-MM-DD') as last_used_on,
            count(*) over (partition by l.id) as total,
            row_number() over (partition by l.id
              order by c.last_consumed_on nulls first, m.created_at, u.id) as rank
          from licenses l
          join memberships m on m.license_id = l.id and m.organization_id = l.organization_id
          join users u on u.id = m.user_id
          left join member_consumption c on c.user_id = m.user_id and c.organization_id = l.organization_id
          where l.organization_id = ${organizationId}
            and m.created_at <= now() - make_interval(days => ${IDLE_SEAT_DAYS})
            and (c.last_consumed_on is null
              or c.last_consumed_on < ${bounds.to}::date - ${IDLE_SEAT_DAYS - 1}::int)
        ) idle where rank <= ${IDLE_SEAT_LIST_LIMIT}
        order by license_id, rank`,
  );
  return {
    organizationId,
    from: bounds.from,
    to: bounds.to,
    licenses: licenses.map((l) => {
      const idle = idleRows.filter((r) => r.license_id === l.id);
      return {
        licenseId: l.id,
        licenseType: l.license_type,
        days: dayRows
          .filter((r) => r.license_id === l.id)
          .map((r) => ({ date: r.date, used: Number(r.used), maxUsers: Number(r.max_users) })),
        idle: {
          count: Number(idle[0]?.total ?? 0),
          users: idle.map((r) => ({ id: r.id, name: r.name, email: r.email, lastUsedOn: r.last_used_on })),
        },
      };
    }),
  };
}
