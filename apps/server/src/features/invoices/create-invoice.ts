import {
  addMonths,
  type CreateInvoiceRequest,
  DEFAULT_PURCHASE_POOL,
  daysBetween,
  INVOICE_DUE_DAYS,
  INVOICE_MSG,
  type Invoice,
  licenseAmount,
  monthsLeft,
  PERIOD_LABEL,
  PERIOD_MONTHS,
  type PriceList,
} from '@allot/domain/invoices';
import { MSG } from '@allot/domain/messages';
import { LICENSE_TYPE_LABEL, type License, type LicenseType } from '@allot/domain/organizations';
import type { Permission } from '@allot/domain/roles';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { recordAudit } from '../audit';
import { type LicenseRow, licenseColumns, licenseSourceJoins, toLicense } from '../licenses';
import { type MailSettings, queueMail } from '../mail';
import { requireOrganizationAccess } from '../organization-access';
import { invoiceMail, longDate } from './invoice-mail';
import { nextInvoiceNumber } from './invoice-numbers';
import { type InvoicePayment, withPayment } from './invoice-payment';
import { selectInvoice } from './invoice-queries';
import { mayMailInvoice } from './invoice-recipients';
import { readPriceList } from './price-list';

/** What an invoice buys and costs, computed from the price list when it is created (decision 010). */
interface Purchase {
  licenseType: LicenseType | null;
  licenseId: string | null;
  description: string;
  amount: number;
  licenseExpirationDays: number | null;
  extendUsersQuantity: number | null;
  newUsersQuantity: number | null;
  /** Added seats: the licence's expiry their months are priced up to (checked again at fulfilment). */
  licenseExpireAt: string | null;
}

/** The spec's 400 (its text), naming the field. */
const invalid = (field: string, message: string) =>
  AppError.invalid({ [field]: message }, MSG.invoiceInvalid);

const seats = (n: number, type: LicenseType) =>
  `${n.toLocaleString('en-US')} ${LICENSE_TYPE_LABEL[type]} seat${n === 1 ? '' : 's'}`;

/** A licence of the organization as reads show it (seats handed down at every level, the licence above). */
async function ownLicence(tx: Tx, organizationId: string, licenseId: string): Promise<License> {
  const notHere = invalid('licenseId', 'This organization has no such licence.');
  if (!isUuid(licenseId)) throw notHere;
  const [row] = await rows<LicenseRow>(
    tx,
    sql`select ${licenseColumns} from licenses l ${licenseSourceJoins}
      where l.id = ${licenseId} and l.organization_id = ${organizationId}`,
  );
  if (!row) throw notHere;
  return toLicense(row);
}

function priceOf(list: PriceList, type: LicenseType): number {
  return list.licenses.find((p) => p.licenseType === type)?.pricePerSeatMonth ?? 0;
}

async function purchaseOf(
  tx: Tx,
  input: CreateInvoiceRequest,
  list: PriceList,
  now: Date,
): Promise<Purchase> {
  const none = {
    licenseType: null,
    licenseId: null,
    licenseExpirationDays: null,
    extendUsersQuantity: null,
    newUsersQuantity: null,
    licenseExpireAt: null,
  };
  switch (input.kind) {
    case 'new_license': {
      const type = input.licenseType as LicenseType;
      const period = input.period ?? '1y';
      const quantity = input.usersQuantity ?? 0;
      const [held] = await rows<{ id: string }>(
        tx,
        sql`select id from licenses where organization_id = ${input.organizationId} and license_type = ${type}`,
      );
      if (held) throw invalid('licenseType', INVOICE_MSG.hasLicense(type));
      const months = PERIOD_MONTHS[period];
      return {
        ...none,
        licenseType: type,
        description: `${seats(quantity, type)} for ${PERIOD_LABEL[period]}`,
        amount: licenseAmount(quantity, months, priceOf(list, type)),
        licenseExpirationDays: daysBetween(now, addMonths(now, months)),
        newUsersQuantity: quantity,
      };
    }
    case 'extend_license': {
      const licence = await ownLicence(tx, input.organizationId, input.licenseId ?? '');
      if (licence.source) {
        throw invalid('licenseId', INVOICE_MSG.followsAbove(licence.source.organizationName));
      }
      const period = input.period ?? '1y';
      const months = PERIOD_MONTHS[period];
      const expiry = new Date(licence.expireAt);
      const from = expiry > now ? expiry : now;
      const covered = licence.maxUsers + licence.handedDown;
      return {
        ...none,
        licenseType: licence.licenseType,
        licenseId: licence.id,
        description: `${LICENSE_TYPE_LABEL[licence.licenseType]} licence (${covered.toLocaleString('en-US')} seats) extended by ${PERIOD_LABEL[period]}`,
        amount: licenseAmount(covered, months, priceOf(list, licence.licenseType)),
        licenseExpirationDays: daysBetween(from, addMonths(from, months)),
        extendUsersQuantity: covered,
      };
    }
    case 'add_users': {
      const licence = await ownLicence(tx, input.organizationId, input.licenseId ?? '');
      const expiry = new Date(licence.expireAt);
      if (expiry <= now) throw invalid('licenseId', INVOICE_MSG.expired);
      const quantity = input.usersQuantity ?? 0;
      const months = monthsLeft(now, expiry);
      return {
        ...none,
        licenseType: licence.licenseType,
        licenseId: licence.id,
        description: `${seats(quantity, licence.licenseType)} more until ${longDate(expiry.toISOString())} (${months} month${months === 1 ? '' : 's'})`,
        amount: licenseAmount(quantity, months, priceOf(list, licence.licenseType)),
        licenseExpirationDays: daysBetween(now, expiry),
        newUsersQuantity: quantity,
        licenseExpireAt: licence.expireAt,
      };
    }
    case 'credits': {
      const pack = list.creditPacks.find((p) => p.credits === input.credits);
      if (!pack) throw invalid('credits', INVOICE_MSG.notAPack(list.creditPacks.map((p) => p.credits)));
      return {
        ...none,
        description: `${pack.credits.toLocaleString('en-US')} AI credits`,
        amount: pack.price,
      };
    }
  }
}

/** The permission an invoice of each kind needs: licences are bought by who manages them, credits likewise. */
const needs = (input: CreateInvoiceRequest): Permission =>
  input.kind === 'credits' ? 'transfer_org_credits' : 'manage_org_license';

/**
 * CONTRACT §7 answers invoice creation with 400, 401, 403 and 500 only: an organization the caller may not buy
 * for is `403` with the contract's text, whether it lacks the permission, cannot see the organization, or the
 * id names nothing. One answer for the three, so nothing about another tenant's organizations leaks (§1).
 */
async function requireBuyer(tx: Tx, user: AuthUser, input: CreateInvoiceRequest) {
  const refused = AppError.forbidden(INVOICE_MSG.forbidden);
  if (!isUuid(input.organizationId)) throw refused;
  try {
    await requireOrganizationAccess(tx, user, input.organizationId, [needs(input)]);
  } catch (error) {
    if (error instanceof AppError && (error.code === 'forbidden' || error.code === 'not_found'))
      throw refused;
    throw error;
  }
  const [org] = await rows<{ id: string }>(
    tx,
    sql`select id from organizations where id = ${input.organizationId} and deleted_at is null`,
  );
  if (!org) throw refused;
  return org;
}

/**
 * POST /api/invoice/create, in the caller's transaction: the amount from the price list, the organization's
 * next number, the mail to the customer (unless an outside address is over the day's cap: `mailed: false`).
 */
export async function createInvoice(
  tx: Tx,
  user: AuthUser,
  input: CreateInvoiceRequest,
  mail: MailSettings,
  payment: InvoicePayment,
): Promise<Invoice> {
  const org = await requireBuyer(tx, user, input);
  const now = new Date();
  const list = await readPriceList(tx);
  const purchase = await purchaseOf(tx, input, list, now);
  const mailed = await mayMailInvoice(tx, org.id, input.customerEmail, mail);
  // Credits land in the pool the buyer chose, the shared one by default (issue 33).
  const creditPool = input.kind === 'credits' ? (input.creditPool ?? DEFAULT_PURCHASE_POOL) : null;
  // Taken last: the organization's series row is held from here to the commit.
  const number = await nextInvoiceNumber(tx, org.id);
  const [row] = await rows<{ id: string }>(
    tx,
    sql`insert into invoices (number, organization_id, kind, license_type, license_id, period, credits,
        description, customer_email, purchase_order, credit_pool, mailed, amount, currency, license_expiration_days,
        extend_users_quantity, new_users_quantity, license_expire_at, created_at, created_by, due_date)
      values (${number}, ${org.id}, ${input.kind}, ${purchase.licenseType}, ${purchase.licenseId},
        ${input.kind === 'new_license' || input.kind === 'extend_license' ? (input.period ?? null) : null},
        ${input.kind === 'credits' ? (input.credits ?? null) : null}, ${purchase.description},
        ${input.customerEmail}, ${input.purchaseOrder || null}, ${creditPool}, ${mailed}, ${purchase.amount},
        ${list.currency},
        ${purchase.licenseExpirationDays}, ${purchase.extendUsersQuantity}, ${purchase.newUsersQuantity},
        ${purchase.licenseExpireAt}, ${now.toISOString()}, ${user.userId},
        ${new Date(now.getTime() + INVOICE_DUE_DAYS * 86_400_000).toISOString()})
      returning id`,
  );
  const record = row && (await selectInvoice(tx, row.id));
  if (!record) throw new Error('invoice insert returned no row');
  const invoice = withPayment(record, payment);
  await recordAudit(tx, {
    organizationId: org.id,
    actorId: user.userId,
    action: 'invoice_created',
    target: { type: 'invoice', id: invoice.id, label: `Invoice ${number}: ${purchase.description}` },
    after: {
      kind: input.kind,
      amount: purchase.amount,
      currency: list.currency,
      customerEmail: input.customerEmail,
      mailed,
      ...(creditPool ? { creditPool } : {}),
    },
  });
  if (mailed) await queueMail(tx, invoiceMail(invoice, mail));
  return invoice;
}
