import {
  addMonths,
  EARLIER_PURCHASES_POOL,
  FULFILMENT_LABEL,
  type FulfilmentMethod,
  INVOICE_MSG,
  PERIOD_MONTHS,
} from '@allot/domain/invoices';
import type { LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { recordAudit } from '../audit';
import { organizationPoolAccountId, postCreditTransaction, systemAccountId } from '../credits';
import { changeExpiry, changeLicense, type LicenseEntry, openLicense } from '../licenses';
import { requireSystemAdmin } from '../organization-access';
import { type InvoiceRecord, selectInvoice } from './invoice-queries';
import { requireExpiryAsPriced, requireSeatsAsPriced } from './priced-licence';

/**
 * An open invoice, locked for the rest of the transaction, for a system admin: `404` when the caller cannot
 * see its organization, `403` when it can. A second fulfil waits here for the first and then finds it final.
 */
async function lockOpenInvoice(
  tx: Tx,
  user: AuthUser,
  id: string,
  refusals: { fulfilled: string; void: string },
) {
  const invoice = await selectInvoice(tx, id, true);
  if (!invoice) throw AppError.notFound();
  await requireSystemAdmin(tx, user, {
    organizationId: invoice.organizationId,
    message: INVOICE_MSG.systemAdminOnly,
  });
  if (invoice.status === 'fulfilled') throw AppError.of('conflict', refusals.fulfilled);
  if (invoice.status === 'void') throw AppError.of('conflict', refusals.void);
  return invoice;
}

type Locked = { id: string; license_type: LicenseType; expire_at: Date | string };

async function lockInvoiceLicence(tx: Tx, invoice: InvoiceRecord): Promise<Locked> {
  const [licence] = await rows<Locked>(
    tx,
    sql`select id, license_type, expire_at from licenses
        where id = ${invoice.licenseId} and organization_id = ${invoice.organizationId} for update`,
  );
  if (!licence) throw AppError.of('conflict', INVOICE_MSG.licenseGone);
  return licence;
}

/** Applies what the invoice bought; answers the licence log entry or the credit transaction that did it. */
async function applyPurchase(
  tx: Tx,
  invoice: InvoiceRecord,
  entry: LicenseEntry,
): Promise<{ licenseEventId: string | null; creditTransactionId: string | null }> {
  const now = new Date();
  const months = invoice.period ? PERIOD_MONTHS[invoice.period] : 0;
  switch (invoice.kind) {
    case 'new_license': {
      const type = invoice.licenseType as LicenseType;
      const opened = await openLicense(
        tx,
        {
          organizationId: invoice.organizationId,
          licenseType: type,
          expireAt: addMonths(now, months).toISOString(),
          seats: invoice.newUsersQuantity ?? 0,
        },
        entry,
      );
      if (!opened) throw AppError.of('conflict', INVOICE_MSG.licenseExistsNow(type));
      return { licenseEventId: opened.eventId, creditTransactionId: null };
    }
    case 'extend_license': {
      const licence = await lockInvoiceLicence(tx, invoice);
      await requireSeatsAsPriced(tx, invoice, licence.id);
      const expiry = new Date(licence.expire_at);
      // An expired licence is extended from today: nobody pays for the time it was expired.
      const from = expiry > now ? expiry : now;
      const changed = await changeExpiry(tx, licence.id, addMonths(from, months).toISOString(), entry);
      return { licenseEventId: changed.eventId, creditTransactionId: null };
    }
    case 'add_users': {
      const licence = await lockInvoiceLicence(tx, invoice);
      await requireExpiryAsPriced(tx, invoice, licence.expire_at);
      const changed = await changeLicense(tx, licence.id, { seats: invoice.newUsersQuantity ?? 0 }, entry);
      return { licenseEventId: changed.eventId, creditTransactionId: null };
    }
    case 'credits': {
      const credits = invoice.credits ?? 0;
      const id = await postCreditTransaction(tx, {
        action: 'purchase',
        actorId: entry.actorId,
        description: entry.description,
        lines: [
          { accountId: await systemAccountId(tx), amount: -credits },
          {
            // The pool the buyer chose (issue 33); the protected one for invoices made before the choice.
            accountId: await organizationPoolAccountId(
              tx,
              invoice.organizationId,
              invoice.creditPool ?? EARLIER_PURCHASES_POOL,
            ),
            amount: credits,
          },
        ],
      });
      return { licenseEventId: null, creditTransactionId: id };
    }
  }
}

/**
 * POST /api/invoice/{id}/fulfil: applies the purchase exactly once, in the same transaction as the status
 * change, and the log entry names the invoice. A second fulfil (also one at the same moment) is `409` and
 * changes nothing; the database refuses to change a fulfilled invoice whatever code tries (IN001).
 */
export async function fulfilInvoice(
  tx: Tx,
  user: AuthUser,
  id: string,
  method: FulfilmentMethod,
): Promise<InvoiceRecord> {
  if (isUuid(id)) {
    // The lock order of organization-access/locks.ts. First the credit accounts a credits invoice posts to
    // (the system account and the organization's pool), as the organization's delete does; then the
    // organization before the invoice, the order of that delete, which voids its open invoices (decision
    // 010), so the two wait for one another instead of deadlocking. `key share` holds off the delete and
    // lets a credit move of the organization through: with `share`, a move that held the pool waited for
    // it while this waited for the pool (issue 31).
    await tx.execute(sql`select a.id from invoices i join credit_accounts a
        on a.kind = 'system' or (a.organization_id = i.organization_id
          and a.kind = coalesce(i.credit_pool, ${EARLIER_PURCHASES_POOL}))
      where i.id = ${id} and i.kind = 'credits' order by a.id for no key update of a`);
    await tx.execute(sql`select o.id from invoices i join organizations o on o.id = i.organization_id
      where i.id = ${id} for key share of o`);
  }
  const invoice = await lockOpenInvoice(tx, user, id, {
    fulfilled: INVOICE_MSG.alreadyFulfilled,
    void: INVOICE_MSG.isVoid,
  });
  const [org] = await rows<{ id: string }>(
    tx,
    sql`select id from organizations where id = ${invoice.organizationId} and deleted_at is null for key share`,
  );
  if (!org) throw AppError.of('conflict', INVOICE_MSG.organizationGone);
  const applied = await applyPurchase(tx, invoice, {
    action: 'purchased',
    description: `Invoice ${invoice.number} (${FULFILMENT_LABEL[method].toLowerCase()}): ${invoice.description}`,
    actorId: user.userId,
  });
  await tx.execute(sql`update invoices set status = 'fulfilled', fulfilment_method = ${method},
      fulfilled_at = now(), fulfilled_by = ${user.userId}, license_event_id = ${applied.licenseEventId},
      credit_transaction_id = ${applied.creditTransactionId}
    where id = ${invoice.id}`);
  await recordAudit(tx, {
    organizationId: invoice.organizationId,
    actorId: user.userId,
    action: 'invoice_fulfilled',
    target: { type: 'invoice', id: invoice.id, label: `Invoice ${invoice.number}: ${invoice.description}` },
    before: { status: 'open' },
    after: { status: 'fulfilled', fulfilmentMethod: method },
    creditTransactionId: applied.creditTransactionId,
  });
  return (await selectInvoice(tx, invoice.id)) as InvoiceRecord;
}

/** POST /api/invoice/{id}/void: a system admin cancels an open invoice; a fulfilled one stays as it is. */
export async function voidInvoice(tx: Tx, user: AuthUser, id: string): Promise<InvoiceRecord> {
  const invoice = await lockOpenInvoice(tx, user, id, {
    fulfilled: INVOICE_MSG.voidFulfilled,
    void: INVOICE_MSG.alreadyVoid,
  });
  await tx.execute(sql`update invoices set status = 'void', voided_at = now(), voided_by = ${user.userId}
    where id = ${invoice.id}`);
  await recordAudit(tx, {
    organizationId: invoice.organizationId,
    actorId: user.userId,
    action: 'invoice_voided',
    target: { type: 'invoice', id: invoice.id, label: `Invoice ${invoice.number}: ${invoice.description}` },
    before: { status: 'open' },
    after: { status: 'void' },
  });
  return (await selectInvoice(tx, invoice.id)) as InvoiceRecord;
}
