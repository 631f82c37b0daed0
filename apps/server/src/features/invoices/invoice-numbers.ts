import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';

/** Capitals and digits without 0, O, 1, I, L (read as one another) and U: 30⁶ ≈ 729 million codes. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
const CODE_LENGTH = 6;
/** A new organization's code meets another's once in ~7,000 at 100,000 organizations: a few tries suffice. */
const CODE_TRIES = 8;

export function randomSeriesCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export const formatInvoiceNumber = (code: string, n: number) => `INV-${code}-${String(n).padStart(4, '0')}`;

/**
 * The organization's next number, `INV-K7M3QD-0001` (decision 010): a random code of its own, then its own
 * sequence. The series row is taken in the creating transaction, so a transaction that rolls back gives its
 * number back (no gaps), and only invoices of the same organization wait for one another. Nothing in a number
 * tells how many invoices other organizations have.
 */
export async function nextInvoiceNumber(
  tx: Tx,
  organizationId: string,
  drawCode: () => string = randomSeriesCode,
): Promise<string> {
  for (let attempt = 0; attempt < CODE_TRIES; attempt++) {
    const [next] = await rows<{ code: string; last: number }>(
      tx,
      sql`update invoice_series set last = last + 1 where organization_id = ${organizationId}
          returning code, last`,
    );
    if (next) return formatInvoiceNumber(next.code, Number(next.last));
    // The organization's first invoice. Nothing inserted: another transaction opened its series first (the
    // update above then finds it), or the code is another organization's (a new code is drawn).
    const [opened] = await rows<{ code: string; last: number }>(
      tx,
      sql`insert into invoice_series (organization_id, code, last)
          values (${organizationId}, ${drawCode()}, 1) on conflict do nothing returning code, last`,
    );
    if (opened) return formatInvoiceNumber(opened.code, Number(opened.last));
  }
  throw new Error(`no invoice series for ${organizationId} after ${CODE_TRIES} tries`);
}
