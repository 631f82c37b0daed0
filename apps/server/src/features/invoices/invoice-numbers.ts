import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';

/**
 * The next number of the year, `INV-2026-000123` (decision 010). The counter row is taken in the creating
 * transaction, so a transaction that rolls back gives its number back: numbers are sequential per year with
 * no gaps, at the price of one invoice created at a time (invoices are rare; the lock is held for one insert).
 */
export async function nextInvoiceNumber(tx: Tx, at: Date): Promise<string> {
  const year = at.getUTCFullYear();
  const [row] = await rows<{ last: number }>(
    tx,
    sql`insert into invoice_counters (year, last) values (${year}, 1)
        on conflict (year) do update set last = invoice_counters.last + 1 returning last`,
  );
  if (!row) throw new Error('invoice counter returned no row');
  return `INV-${year}-${String(row.last).padStart(6, '0')}`;
}
