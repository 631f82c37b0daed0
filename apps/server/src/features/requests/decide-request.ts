import {
  type ApproveRequest,
  type DeclineRequest,
  describeRequest,
  REQUEST_MSG,
  type UpTreeRequest,
} from '@allot/domain/requests';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { recordAudit } from '../audit';
import { assignOrganizations } from '../credits';
import { assignLicenses } from '../licenses';
import { type MailSettings, queueMail } from '../mail';
import { askerToTell } from './deciders';
import { type LockedRequest, lockVisibleRequest, requireDecider, requireOpen } from './request-access';
import { decisionMail } from './request-mails';
import { readRequest } from './request-rows';

/**
 * The allocation an approval makes, through the same services as the calls an admin above would make by hand
 * (their access checks, logs and audit entries, and the spec's `422` refusals, unchanged): credits from the
 * shared pool of the organization asked into the asked pool; seats of the asked type.
 */
async function allocate(tx: Tx, user: AuthUser, request: LockedRequest, amount: number): Promise<void> {
  if (request.kind === 'credits') {
    await assignOrganizations(tx, user, {
      amount,
      sourceOrganizationId: request.parentOrganizationId,
      fromOrganizationPoolType: 'shared',
      targetOrganizationIds: [request.organizationId],
      toOrganizationPoolType: request.pool ?? 'shared',
    });
    return;
  }
  if (!request.licenseType) throw new Error(`seats request ${request.id} without a licence type`);
  await assignLicenses(tx, user, {
    sourceOrganizationId: request.parentOrganizationId,
    targetOrganizationIds: [request.organizationId],
    licenses: [{ type: request.licenseType, amount }],
  });
}

/** Audit (in the asking organization) and mail of a decision, then the request as the deciders see it. */
async function recordDecision(
  tx: Tx,
  user: AuthUser,
  request: LockedRequest,
  action: 'request_approved' | 'request_declined',
  after: Record<string, unknown>,
  mail: MailSettings,
): Promise<UpTreeRequest> {
  const answer = await readRequest(tx, request.id, request.parentOrganizationId);
  await recordAudit(tx, {
    organizationId: request.organizationId,
    actorId: user.userId,
    action,
    target: { type: 'request', id: request.id, label: describeRequest(request, request.amount) },
    before: { status: 'open' },
    after,
  });
  const asker = await askerToTell(tx, request.createdBy, request.organizationId);
  if (asker && request.createdBy !== user.userId) await queueMail(tx, decisionMail(answer, asker, mail));
  return answer;
}

/**
 * POST /api/request/{id}/approve: `amount` (at most what was asked; all of it by default) is allocated in this
 * transaction, then the request is approved. A refusal of the allocation (`422`: not enough credits or seats, no
 * licence of the type) leaves it open and nothing moved. Two approvals at once: the second waits on the request's
 * row and finds it approved (`409`).
 */
export async function approveRequest(
  tx: Tx,
  user: AuthUser,
  id: string,
  input: ApproveRequest,
  mail: MailSettings,
): Promise<UpTreeRequest> {
  const { request, sides } = await lockVisibleRequest(tx, user, id);
  requireDecider(request, sides);
  requireOpen(request);
  const amount = input.amount ?? request.amount;
  if (amount > request.amount) {
    throw AppError.of('business_rule', REQUEST_MSG.amountAboveAsked(request.amount), {
      fields: { amount: REQUEST_MSG.amountAboveAsked(request.amount) },
    });
  }
  await allocate(tx, user, request, amount);
  await tx.execute(sql`update organization_requests
    set status = 'approved', approved_amount = ${amount}, decided_by = ${user.userId}, decided_at = now()
    where id = ${request.id}`);
  return recordDecision(
    tx,
    user,
    request,
    'request_approved',
    { status: 'approved', approvedAmount: amount },
    mail,
  );
}

/** POST /api/request/{id}/decline: by the same people as approve, with a reason the asker is told. */
export async function declineRequest(
  tx: Tx,
  user: AuthUser,
  id: string,
  input: DeclineRequest,
  mail: MailSettings,
): Promise<UpTreeRequest> {
  const { request, sides } = await lockVisibleRequest(tx, user, id);
  requireDecider(request, sides);
  requireOpen(request);
  const reason = input.reason.trim();
  await tx.execute(sql`update organization_requests
    set status = 'declined', reason = ${reason}, decided_by = ${user.userId}, decided_at = now()
    where id = ${request.id}`);
  return recordDecision(tx, user, request, 'request_declined', { status: 'declined', reason }, mail);
}
