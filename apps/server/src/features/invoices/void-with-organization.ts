import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { recordAudit } from '../audit';

/**
 * An organization being deleted (in its delete's transaction, its row locked): its open invoices become void
 * (decision 010). What they would buy has nowhere to go once it is gone (its licences and pools go to the
 * parent), and a void invoice says so to everyone who reads it, the billing queue included. Fulfilled and void
 * ones stay as they are; all of them remain readable in the parent's list. Answers how many were voided.
 */
export async function voidOpenInvoicesOf(tx: Tx, organizationId: string, actorId: string): Promise<number> {
  const voided = await rows<{ id: string; number: string; description: string }>(
    tx,
    sql`update invoices set status = 'void', voided_at = now(), voided_by = ${actorId}
      where organization_id = ${organizationId} and status = 'open'
      returning id, number, description`,
  );
  await recordAudit(
    tx,
    voided.map((invoice) => ({
      organizationId,
      actorId,
      action: 'invoice_voided' as const,
      target: {
        type: 'invoice' as const,
        id: invoice.id,
        label: `Invoice ${invoice.number}: ${invoice.description} (its organization was deleted)`,
      },
      before: { status: 'open' },
      after: { status: 'void' },
    })),
  );
  return voided.length;
}
