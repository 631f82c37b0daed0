import type { CreditPool } from '@allot/domain/credits';
import type { LicenseType } from '@allot/domain/organizations';
import type { RequestKind, RequestStatus, UpTreeRequest } from '@allot/domain/requests';
import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { namedInLogOfSql, personInLog } from '../organization-access';

type Stamp = Date | string;

interface RequestRow {
  id: string;
  status: RequestStatus;
  kind: RequestKind;
  amount: number | string;
  pool: CreditPool | null;
  license_type: LicenseType | null;
  note: string | null;
  organization_id: string;
  organization_name: string;
  parent_organization_id: string;
  parent_name: string;
  created_at: Stamp;
  creator_id: string | null;
  creator_named: boolean | null;
  creator_name: string | null;
  creator_email: string | null;
  decided_at: Stamp | null;
  decider_id: string | null;
  decider_named: boolean | null;
  decider_name: string | null;
  decider_email: string | null;
  approved_amount: number | string | null;
  reason: string | null;
}

/**
 * The columns of a request `r` as the API shows it, from the point of view of `viewer` (the organization whose
 * list or screen shows it): the people who asked and decided are named as its logs name them (CONTRACT §5).
 */
function requestColumns(viewer: string): SQL {
  return sql`r.id, r.status, r.kind, r.amount, r.pool, r.license_type, r.note,
    r.organization_id, o.name as organization_name, r.parent_organization_id, p.name as parent_name,
    r.created_at, cu.id as creator_id, ${namedInLogOfSql(sql`cu.id`, viewer)} as creator_named,
    cu.name as creator_name, cu.email as creator_email,
    r.decided_at, du.id as decider_id, ${namedInLogOfSql(sql`du.id`, viewer)} as decider_named,
    du.name as decider_name, du.email as decider_email,
    r.approved_amount, r.reason`;
}

const requestFrom = sql`from organization_requests r
  join organizations o on o.id = r.organization_id
  join organizations p on p.id = r.parent_organization_id
  left join users cu on cu.id = r.created_by
  left join users du on du.id = r.decided_by`;

const iso = (value: Stamp) => new Date(value).toISOString();

function toRequest(r: RequestRow): UpTreeRequest {
  return {
    id: r.id,
    status: r.status,
    kind: r.kind,
    amount: Number(r.amount),
    pool: r.pool,
    licenseType: r.license_type,
    note: r.note,
    organization: { id: r.organization_id, name: r.organization_name },
    parentOrganization: { id: r.parent_organization_id, name: r.parent_name },
    createdAt: iso(r.created_at),
    createdBy: personInLog({
      actor_id: r.creator_id,
      actor_named: r.creator_named,
      actor_name: r.creator_name,
      actor_email: r.creator_email,
    }),
    decidedAt: r.decided_at === null ? null : iso(r.decided_at),
    decidedBy: personInLog({
      actor_id: r.decider_id,
      actor_named: r.decider_named,
      actor_name: r.decider_name,
      actor_email: r.decider_email,
    }),
    approvedAmount: r.approved_amount === null ? null : Number(r.approved_amount),
    reason: r.reason,
  };
}

/** One request as `viewer` sees it (see `requestColumns`). */
export async function readRequest(tx: Tx, id: string, viewer: string): Promise<UpTreeRequest> {
  const [row] = await rows<RequestRow>(
    tx,
    sql`select ${requestColumns(viewer)} ${requestFrom} where r.id = ${id}`,
  );
  if (!row) throw new Error(`request ${id} vanished inside its own transaction`);
  return toRequest(row);
}

/** The requests `where` selects (over `r`), newest first, a page of them, as `viewer` sees them. */
export async function readRequests(
  tx: Tx,
  where: SQL,
  viewer: string,
  page: { limit: number; offset: number },
): Promise<UpTreeRequest[]> {
  const found = await rows<RequestRow>(
    tx,
    sql`select ${requestColumns(viewer)} ${requestFrom} where ${where}
      order by r.created_at desc, r.id desc limit ${page.limit} offset ${page.offset}`,
  );
  return found.map(toRequest);
}
