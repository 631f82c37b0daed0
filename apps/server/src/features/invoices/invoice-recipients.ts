import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';
import { hitRateLimit, rateLimitKey } from '../../lib/rate-limit';
import type { MailSettings } from '../mail';

/** Invoice mails one organization may send in a day to outside addresses unless configured otherwise. */
export const DEFAULT_INVOICE_MAILS_PER_DAY = 20;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * Whether `email` is one of the organization's owners and admins (CONTRACT §7): a confirmed account holding
 * owner or admin on the organization or above it, the people who manage it.
 */
async function isOrganizationManager(tx: Tx, organizationId: string, email: string): Promise<boolean> {
  const found = await rows(
    tx,
    sql`select 1 from users u
      join memberships m on m.user_id = u.id and m.role in ${MANAGING_ROLES_SQL}
      join organization_closure c on c.ancestor_id = m.organization_id and c.descendant_id = ${organizationId}
      where lower(u.email) = lower(${email}) and u.email_verified_at is not null
      limit 1`,
  );
  return found.length > 0;
}

/**
 * Whether a new invoice is mailed to its customer (CONTRACT §7, decision 010), in the creating transaction: always
 * to the organization's own owners and admins; to any other address at most INVOICE_MAILS_PER_DAY times in 24
 * hours per organization, counted in the database (all processes together; a create that rolls back gives its
 * mail back). Beyond that the invoice is created without its mail, so nobody can send mail through invoices.
 */
export async function mayMailInvoice(
  tx: Tx,
  organizationId: string,
  email: string,
  settings: MailSettings,
): Promise<boolean> {
  if (await isOrganizationManager(tx, organizationId, email)) return true;
  const limit = settings.invoiceMailsPerDay ?? DEFAULT_INVOICE_MAILS_PER_DAY;
  const used = await hitRateLimit(tx, rateLimitKey('invoice-mails', organizationId), DAY_SECONDS);
  return used <= limit;
}
