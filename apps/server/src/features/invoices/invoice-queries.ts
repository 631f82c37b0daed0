import type { CreditPool } from '@allot/domain/credits';
import {
  type BillingQueueQuery,
  EARLIER_PURCHASES_POOL,
  type FulfilmentMethod,
  type Invoice,
  type InvoiceKind,
  type InvoicePage,
  type InvoicePeriod,
  type InvoiceSortKey,
  type InvoiceStatus,
} from '@allot/domain/invoices';
import type { LicenseType } from '@allot/domain/organizations';
import { buildPagination, type PaginationQuery } from '@allot/domain/pagination';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import { requireOrganizationAccess, requireSystemAdmin } from '../organization-access';

type Stamp = Date | string;
export type InvoiceRecordPage = Omit<InvoicePage, 'data'> & { data: InvoiceRecord[] };

export type InvoiceRow = {
  id: string;
  number: string;
  organization_id: string;
  organization_name: string;
  organization_deleted: boolean;
  status: InvoiceStatus;
  kind: InvoiceKind;
  license_type: LicenseType | null;
  license_id: string | null;
  period: InvoicePeriod | null;
  credits: number | null;
  description: string;
  customer_email: string;
  purchase_order: string | null;
  credit_pool: CreditPool | null;
  mailed: boolean;
  amount: string | number;
  currency: string;
  created_at: Stamp;
  due_date: Stamp;
  license_expiration_days: number | null;
  extend_users_quantity: number | null;
  new_users_quantity: number | null;
  fulfilment_method: FulfilmentMethod | null;
  fulfilled_at: Stamp | null;
  voided_at: Stamp | null;
  created_by: string | null;
  creator_name: string | null;
  creator_email: string | null;
};

/** An invoice as the database keeps it; the answers add the installation's payment settings (invoice-payment.ts). */
export type InvoiceRecord = Omit<Invoice, 'payee' | 'paymentInstructions'>;

const iso = (value: Stamp) => new Date(value).toISOString();
const intOrNull = (value: number | null) => (value === null ? null : Number(value));

export function toInvoice(r: InvoiceRow): InvoiceRecord {
  return {
    id: r.id,
    number: r.number,
    organizationId: r.organization_id,
    organizationName: r.organization_name,
    organizationDeleted: r.organization_deleted,
    status: r.status,
    kind: r.kind,
    licenseType: r.license_type,
    licenseId: r.license_id,
    period: r.period,
    credits: intOrNull(r.credits),
    description: r.description,
    customerEmail: r.customer_email,
    purchaseOrder: r.purchase_order,
    creditPool: r.credit_pool,
    mailed: r.mailed,
    amount: Number(r.amount),
    currency: r.currency,
    createdAt: iso(r.created_at),
    dueDate: iso(r.due_date),
    licenseExpirationDays: intOrNull(r.license_expiration_days),
    extendUsersQuantity: intOrNull(r.extend_users_quantity),
    newUsersQuantity: intOrNull(r.new_users_quantity),
    fulfilmentMethod: r.fulfilment_method,
    fulfilledAt: r.fulfilled_at ? iso(r.fulfilled_at) : null,
    voidedAt: r.voided_at ? iso(r.voided_at) : null,
    createdBy: r.created_by
      ? { id: r.created_by, name: r.creator_name ?? '', email: r.creator_email ?? '' }
      : null,
  };
}

/** Every column of `toInvoice`, from invoices `i`. */
const invoiceColumns = sql`i.id, i.number, i.organization_id, o.name as organization_name,
  o.deleted_at is not null as organization_deleted, i.status, i.kind, i.license_type, i.license_id, i.period,
  i.credits, i.description, i.customer_email, i.purchase_order,
  case when i.kind = 'credits' then coalesce(i.credit_pool, ${EARLIER_PURCHASES_POOL}) end as credit_pool,
  i.mailed, i.amount, i.currency,
  i.created_at, i.due_date, i.license_expiration_days, i.extend_users_quantity, i.new_users_quantity,
  i.fulfilment_method, i.fulfilled_at, i.voided_at, i.created_by, u.name as creator_name, u.email as creator_email`;
const invoiceFrom = sql`from invoices i join organizations o on o.id = i.organization_id
  left join users u on u.id = i.created_by`;

/** One invoice as the API shows it; `lock` takes its row for the rest of the transaction. */
export async function selectInvoice(tx: Tx, id: string, lock = false): Promise<InvoiceRecord | null> {
  if (!isUuid(id)) return null;
  const [row] = await rows<InvoiceRow>(
    tx,
    sql`select ${invoiceColumns} ${invoiceFrom} where i.id = ${id} ${lock ? sql`for update of i` : sql``}`,
  );
  return row ? toInvoice(row) : null;
}

/**
 * Who may read the invoices of an organization (decision 010): whoever has `manage_org_license` on it, and once
 * it is deleted (its invoices stay), on its nearest live ancestor, whose list shows them; a system admin always.
 * `404` for anyone else, and for an id that names no organization.
 */
export async function requireInvoiceReader(db: Tx, user: AuthUser, organizationId: string): Promise<void> {
  if (!isUuid(organizationId)) throw AppError.notFound();
  const [found] = await rows<{ deleted: boolean; holder: string | null }>(
    db,
    sql`with recursive up as (
        select id, parent_id, deleted_at, 0 as depth from organizations where id = ${organizationId}
        union all
        select o.id, o.parent_id, o.deleted_at, up.depth + 1 from organizations o join up on o.id = up.parent_id
        where up.deleted_at is not null)
      select (select deleted_at is not null from up where depth = 0) as deleted,
        (select id from up where deleted_at is null order by depth limit 1) as holder
      where exists (select 1 from up)`,
  );
  if (!found) throw AppError.notFound();
  if (found.deleted && user.isSystemAdmin) return;
  if (!found.holder) throw AppError.notFound();
  await requireOrganizationAccess(db, user, found.holder, ['manage_org_license']);
}

/** GET /api/invoice/{id}: whoever reads its organization's invoices (`requireInvoiceReader`). */
export async function readInvoice(db: Db, user: AuthUser, id: string): Promise<InvoiceRecord> {
  const invoice = await selectInvoice(db, id);
  if (!invoice) throw AppError.notFound();
  await requireInvoiceReader(db, user, invoice.organizationId);
  return invoice;
}

const ORDER: Record<InvoiceSortKey, SQL> = {
  number: sql`i.number`,
  createdAt: sql`i.created_at`,
  dueDate: sql`i.due_date`,
  amount: sql`i.amount`,
  status: sql`i.status`,
};

/**
 * The organizations whose invoices an organization's list shows: itself, and the deleted organizations whose
 * nearest live ancestor it is (their invoices stay, decision 010), found down `parent_id` through deleted ones.
 */
const listedOrganizations = (organizationId: string) => sql`with recursive gone as (
    select o.id from organizations o where o.parent_id = ${organizationId} and o.deleted_at is not null
    union all
    select o.id from organizations o join gone on o.parent_id = gone.id where o.deleted_at is not null)
  select ${organizationId}::uuid as id union all select id from gone`;

/**
 * GET /api/invoices (CONTRACT §7, the billing queue): the invoices of every organization, deleted ones' too, for
 * system admins (`403` for anyone else), a page at a time, by status; `search` as an organization's list.
 */
export async function listAllInvoices(
  db: Db,
  user: AuthUser,
  query: BillingQueueQuery,
): Promise<InvoiceRecordPage> {
  await requireSystemAdmin(db, user);
  return invoicePage(db, query, query.status ? sql`i.status = ${query.status}` : sql`true`);
}

/**
 * GET /api/organization/{id}/invoices (see `requireInvoiceReader`): the organization's invoices and those of
 * deleted organizations below it, a page at a time; `search` matches the start of the number (with or without
 * its `INV-…-` prefix), of the customer's email or of the buyer's purchase-order number.
 */
export async function listInvoices(
  db: Db,
  user: AuthUser,
  organizationId: string,
  query: PaginationQuery<InvoiceSortKey>,
): Promise<InvoiceRecordPage> {
  await requireInvoiceReader(db, user, organizationId);
  return invoicePage(db, query, sql`i.organization_id in (${listedOrganizations(organizationId)})`);
}

/** A page of the invoices `scope` selects, searched and sorted as the lists ask. */
async function invoicePage(
  db: Db,
  query: PaginationQuery<InvoiceSortKey>,
  scope: SQL,
): Promise<InvoiceRecordPage> {
  const term = query.search.trim().toLowerCase();
  const like = `${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = sql`${scope} ${
    term
      ? sql`and (lower(i.number) like ${like} or lower(i.number) like ${`inv-${like}`}
          or lower(i.number) like ${`inv-%-${like}`} or lower(i.customer_email) like ${like}
          or lower(i.purchase_order) like ${like})`
      : sql``
  }`;
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  const [counted] = await rows<{ total: string }>(
    db,
    sql`select count(*)::text as total from invoices i where ${where}`,
  );
  const found = await rows<InvoiceRow>(
    db,
    sql`select ${invoiceColumns} ${invoiceFrom} where ${where}
      order by ${ORDER[query.key]} ${direction}, i.number ${direction}
      limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
  );
  return { data: found.map(toInvoice), pagination: buildPagination(query, Number(counted?.total ?? 0)) };
}
