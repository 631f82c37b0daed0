import { INVOICE_MSG } from '@allot/domain/invoices';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { InvoiceRecord } from './invoice-queries';

/**
 * An extension applies to the seats it priced (CONTRACT §7, decision 010): the licence's own and those handed
 * down from it at any depth, counted with all of them locked (in id order, as the expiry change that follows
 * takes them), in a statement after the locks, so no seat is added or taken below while it is counted. Another
 * count than the invoice's `extendUsersQuantity`: `409`, nothing changes.
 */
export async function requireSeatsAsPriced(tx: Tx, invoice: InvoiceRecord, licenseId: string): Promise<void> {
  const tree = sql`with recursive below as (
      select id from licenses where source_license_id = ${licenseId}
      union select l.id from licenses l join below b on l.source_license_id = b.id)`;
  await tx.execute(sql`${tree} select l.id from licenses l
      where l.id = ${licenseId} or l.id in (select id from below) order by l.id for update of l`);
  const [counted] = await rows<{ seats: number | string }>(
    tx,
    sql`${tree} select (select max_users from licenses where id = ${licenseId})
        + (select coalesce(sum(l.max_users), 0) from licenses l join below b on b.id = l.id) as seats`,
  );
  const seats = Number(counted?.seats ?? 0);
  const priced = invoice.extendUsersQuantity ?? 0;
  if (seats !== priced) throw AppError.of('conflict', INVOICE_MSG.seatsChanged(priced, seats));
}

/**
 * Added seats apply to the months they priced (CONTRACT §7, decision 010): up to the licence's expiry when the
 * invoice was made. Extended since (or shortened), the seats would get months nobody paid for: `409`. The
 * licence is locked by the caller.
 */
export async function requireExpiryAsPriced(
  tx: Tx,
  invoice: InvoiceRecord,
  licenceExpiry: Date | string,
): Promise<void> {
  const [row] = await rows<{ license_expire_at: Date | string | null }>(
    tx,
    sql`select license_expire_at from invoices where id = ${invoice.id}`,
  );
  const priced = row?.license_expire_at ? new Date(row.license_expire_at).toISOString() : null;
  const now = new Date(licenceExpiry).toISOString();
  if (priced !== now) throw AppError.of('conflict', INVOICE_MSG.expiryChanged(priced, now));
}
