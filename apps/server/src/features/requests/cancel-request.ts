import type { CreditPool } from '@allot/domain/credits';
import type { LicenseType } from '@allot/domain/organizations';
import { describeRequest, type RequestKind, type UpTreeRequest } from '@allot/domain/requests';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import type { AuthUser } from '../../http/authenticate';
import { recordAudit } from '../audit';
import { lockVisibleRequest, requireAsker, requireOpen } from './request-access';
import { readRequest } from './request-rows';

/** POST /api/request/{id}/cancel: by whoever manages the asking organization, while it is open. */
export async function cancelRequest(tx: Tx, user: AuthUser, id: string): Promise<UpTreeRequest> {
  const { request, sides } = await lockVisibleRequest(tx, user, id);
  requireAsker(sides);
  requireOpen(request);
  await tx.execute(sql`update organization_requests
    set status = 'cancelled', decided_by = ${user.userId}, decided_at = now() where id = ${request.id}`);
  await recordAudit(tx, {
    organizationId: request.organizationId,
    actorId: user.userId,
    action: 'request_cancelled',
    target: { type: 'request', id: request.id, label: describeRequest(request, request.amount) },
    before: { status: 'open' },
    after: { status: 'cancelled' },
  });
  return readRequest(tx, request.id, request.organizationId);
}

/**
 * An organization about to be deleted, first thing in its delete's transaction: its open requests, locked in the
 * order a decision locks them (the request before credit accounts and organizations), so that an approval under
 * way finishes first and a delete never waits for one while holding what it needs.
 */
export async function holdOpenRequestsOf(tx: Tx, organizationId: string): Promise<void> {
  await tx.execute(sql`select id from organization_requests
    where organization_id = ${organizationId} and status = 'open' order by id for update`);
}

/**
 * An organization being deleted (its row locked for update): its open requests are cancelled, audit-logged in
 * it. Nothing can be given to an organization that is gone, and the admins above should not be left to decide.
 */
export async function cancelOpenRequestsOf(tx: Tx, organizationId: string, actorId: string): Promise<void> {
  const cancelled = await rows<{
    id: string;
    kind: RequestKind;
    amount: number | string;
    pool: CreditPool | null;
    license_type: LicenseType | null;
  }>(
    tx,
    sql`update organization_requests set status = 'cancelled', decided_by = ${actorId}, decided_at = now()
      where organization_id = ${organizationId} and status = 'open'
      returning id, kind, amount, pool, license_type`,
  );
  await recordAudit(
    tx,
    cancelled.map((r) => ({
      organizationId,
      actorId,
      action: 'request_cancelled' as const,
      target: {
        type: 'request' as const,
        id: r.id,
        label: `${describeRequest({ kind: r.kind, pool: r.pool, licenseType: r.license_type }, Number(r.amount))} (its organization was deleted)`,
      },
      before: { status: 'open' },
      after: { status: 'cancelled' },
    })),
  );
}
