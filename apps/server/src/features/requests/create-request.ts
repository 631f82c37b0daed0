import {
  type CreateRequest,
  describeRequest,
  REQUEST_MSG,
  REQUEST_PERMISSION,
  REQUESTS_PER_DAY,
  type UpTreeRequest,
} from '@allot/domain/requests';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { recordAudit } from '../audit';
import { type MailSettings, queueMails } from '../mail';
import { lockOrganization, requireOrganizationAccess } from '../organization-access';
import { decidersOf } from './deciders';
import { newRequestMail } from './request-mails';
import { readRequest } from './request-rows';

/** Any constant: the advisory locks that count one organization's requests of the day, one per organization. */
const REQUEST_COUNT_LOCKS = 7_141_038;

/**
 * At most REQUESTS_PER_DAY requests opened in 24 hours by one organization (CONTRACT §11), whatever their fate
 * since (a cancelled one counts: cancelling must not make room for more mail to the admins above). Counted under
 * an advisory lock of the organization, so two requests at once cannot both be the tenth; the lock is no row,
 * so credit moves that update the organization's row never wait for it.
 */
async function requireRoomToday(tx: Tx, organizationId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${REQUEST_COUNT_LOCKS}, hashtext(${organizationId}))`);
  // Held against its deletion: a request is never left open on an organization that is gone (its delete
  // cancels the open ones, after this transaction has committed).
  await lockOrganization(tx, organizationId, 'key share');
  const [counted] = await rows<{ n: number | string }>(
    tx,
    sql`select count(*) as n from organization_requests
      where organization_id = ${organizationId} and created_at > now() - interval '24 hours'`,
  );
  if (Number(counted?.n ?? 0) >= REQUESTS_PER_DAY) throw AppError.of('rate_limited', REQUEST_MSG.tooMany);
}

/**
 * POST /api/organization/{id}/requests: by whoever manages `{id}` with the permission of what is asked
 * (`REQUEST_PERMISSION`), of the organization directly above it. Audit-logged in the asking organization (the
 * audit log above shows its subtree's entries) and mailed to the owners and admins above.
 */
export async function createRequest(
  tx: Tx,
  user: AuthUser,
  organizationId: string,
  input: CreateRequest,
  mail: MailSettings,
): Promise<UpTreeRequest> {
  await requireOrganizationAccess(tx, user, organizationId, [REQUEST_PERMISSION[input.kind]]);
  const [org] = await rows<{ parent_id: string | null }>(
    tx,
    sql`select parent_id from organizations where id = ${organizationId}`,
  );
  const parentId = org?.parent_id;
  if (!parentId) throw AppError.of('business_rule', REQUEST_MSG.noParent);
  await requireRoomToday(tx, organizationId);
  const credits = input.kind === 'credits';
  const [row] = await rows<{ id: string }>(
    tx,
    sql`insert into organization_requests
        (organization_id, parent_organization_id, kind, amount, pool, license_type, note, created_by)
      values (${organizationId}, ${parentId}, ${input.kind}, ${input.amount},
        ${credits ? (input.pool ?? 'shared') : null}, ${credits ? null : (input.licenseType ?? null)},
        ${input.note?.trim() || null}, ${user.userId})
      returning id`,
  );
  if (!row) throw new Error('request insert returned no row');
  const request = await readRequest(tx, row.id, organizationId);
  await recordAudit(tx, {
    organizationId,
    actorId: user.userId,
    action: 'request_created',
    target: { type: 'request', id: request.id, label: describeRequest(request, request.amount) },
    after: {
      status: 'open',
      kind: request.kind,
      amount: request.amount,
      ...(credits ? { pool: request.pool } : { licenseType: request.licenseType }),
      parentOrganization: request.parentOrganization.name,
      ...(request.note ? { note: request.note } : {}),
    },
  });
  const deciders = (await decidersOf(tx, parentId)).filter((d) => d.id !== user.userId);
  await queueMails(
    tx,
    deciders.map((d) => newRequestMail(request, user, d, mail)),
  );
  return request;
}
