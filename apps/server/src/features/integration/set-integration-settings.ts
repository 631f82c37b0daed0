import type { IntegrationSettings, UpdateIntegrationSettingsRequest } from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { requireOrganizationAccess } from '../organization-access';

/**
 * General information's 'Daily limit' (issue 15): the most credits the classroom product may consume in one
 * UTC day by the organization's own members (null: no limit; organizations below have their own), with what
 * they consumed today (`consumption_days`, which each consumption adds to in its transaction, in 16 slots a day). Needs `manage_org_integration`
 * on the organization (`404` when the caller cannot see it, `403` without the permission).
 */

const PERMISSION = ['manage_org_integration'] as const;

/** The limit and today's consumption (UTC day; no row yet is 0), in one read. */
async function readSettings(db: Tx, organizationId: string): Promise<IntegrationSettings> {
  const [row] = await rows<{ limit: string | number | null; consumed: string | number }>(
    db,
    sql`select o.daily_consumption_limit as limit,
          coalesce((select sum(d.credits) from consumption_days d
            where d.organization_id = o.id and d.day = (now() at time zone 'UTC')::date), 0) as consumed
        from organizations o where o.id = ${organizationId} and o.deleted_at is null`,
  );
  if (!row) throw AppError.notFound();
  return {
    dailyConsumptionLimit: row.limit === null ? null : Number(row.limit),
    consumedToday: Number(row.consumed),
  };
}

export async function getIntegrationSettings(
  db: Db,
  user: AuthUser,
  organizationId: string,
): Promise<IntegrationSettings> {
  await requireOrganizationAccess(db, user, organizationId, PERMISSION);
  return readSettings(db, organizationId);
}

/**
 * Sets (or with null lifts) the daily limit. It applies to the consumptions that follow; a limit below what
 * was already consumed today is allowed and refuses every further consumption today.
 */
export async function updateIntegrationSettings(
  tx: Tx,
  user: AuthUser,
  organizationId: string,
  input: UpdateIntegrationSettingsRequest,
): Promise<IntegrationSettings> {
  await requireOrganizationAccess(tx, user, organizationId, PERMISSION);
  const updated = await rows<{ id: string }>(
    tx,
    sql`update organizations set daily_consumption_limit = ${input.dailyConsumptionLimit}, updated_at = now()
        where id = ${organizationId} and deleted_at is null returning id`,
  );
  if (updated.length === 0) throw AppError.notFound();
  return readSettings(tx, organizationId);
}
