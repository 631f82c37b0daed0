import {
  type CreditAlertSettings,
  type CreditAlerts,
  type CreditAlertThreshold,
  creditAlertLevel,
} from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { lockOrganizationChain, requireOrganizationAccess } from '../organization-access';

/**
 * Low-balance alert thresholds of an organization's shared pool (CONTRACT §10; decision 014). Needs
 * `view_audit_logs` on the organization, like every call of CONTRACT §10.
 */
const PERMISSION = ['view_audit_logs'] as const;

type SettingsRow = {
  shared: string | number;
  thresholds: CreditAlertThreshold[] | null;
  reference: string | number | null;
  fired: number[] | null;
  updated_at: Date | string | null;
};

async function readSettings(db: Tx, organizationId: string): Promise<CreditAlertSettings> {
  const [row] = await rows<SettingsRow>(
    db,
    sql`select o.shared_credits as shared, s.thresholds, s.reference_balance as reference, s.fired, s.updated_at
        from organizations o left join credit_alert_settings s on s.organization_id = o.id
        where o.id = ${organizationId} and o.deleted_at is null`,
  );
  if (!row) throw AppError.notFound();
  const thresholds = (row.thresholds ?? []).map((t) => ({ kind: t.kind, value: t.value }));
  const reference = row.reference === null ? null : Number(row.reference);
  const fired = new Set(row.fired ?? []);
  return {
    thresholds,
    organizationId,
    sharedCredits: Number(row.shared),
    referenceBalance: reference,
    levels: thresholds.map((t, i) => ({ ...t, level: creditAlertLevel(t, reference), fired: fired.has(i) })),
    updatedAt: row.updated_at === null ? null : new Date(row.updated_at).toISOString(),
  };
}

export async function getCreditAlerts(
  db: Db,
  user: AuthUser,
  organizationId: string,
): Promise<CreditAlertSettings> {
  await requireOrganizationAccess(db, user, organizationId, PERMISSION);
  return readSettings(db, organizationId);
}

/**
 * Replaces the thresholds and re-arms them all. The reference (the pool after the last top-up) is kept while
 * alerts were on, since the trigger kept it up to date; when they were off (no thresholds, or never set) the
 * trigger did not follow the top-ups, so the pool now becomes the reference.
 *
 * Lock order: the organization's chain with `no key update`, root first, as a posting locks it, then the
 * settings row, as the posting's alert trigger does: a save and a posting queue up instead of deadlocking,
 * and a posting after the save sees the new thresholds.
 */
export async function putCreditAlerts(
  tx: Tx,
  user: AuthUser,
  organizationId: string,
  input: CreditAlerts,
): Promise<CreditAlertSettings> {
  await requireOrganizationAccess(tx, user, organizationId, PERMISSION);
  await lockOrganizationChain(tx, organizationId);
  const thresholds = input.thresholds.map((t) => ({ kind: t.kind, value: t.value }));
  await tx.execute(sql`
    insert into credit_alert_settings (organization_id, thresholds, reference_balance, fired, updated_by, updated_at)
    select o.id, ${jsonParam(thresholds)}::jsonb, o.shared_credits, '[]'::jsonb, ${user.userId}, now()
      from organizations o where o.id = ${organizationId}
    on conflict (organization_id) do update set
      thresholds = excluded.thresholds,
      reference_balance = case
        when credit_alert_settings.reference_balance is null
          or jsonb_array_length(credit_alert_settings.thresholds) = 0
        then excluded.reference_balance else credit_alert_settings.reference_balance end,
      fired = '[]'::jsonb,
      updated_by = excluded.updated_by,
      updated_at = now()`);
  return readSettings(tx, organizationId);
}
