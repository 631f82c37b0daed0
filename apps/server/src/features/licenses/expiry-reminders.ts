import { LICENSE_EXPIRING_SOON_DAYS, type LicenseType } from '@allot/domain/organizations';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { writeTransaction } from '../../db/transaction';
import { type MailSettings, queueMail } from '../mail';
import { type ExpiringLicence, expiryReminderMail, type ReminderRecipient } from './expiry-reminder-mail';

/** A reminder goes this many days before a licence expires, once per licence, expiry and threshold. */
export const FIRST_REMINDER_DAYS = LICENSE_EXPIRING_SOON_DAYS;
export const LAST_REMINDER_DAYS = 7;

/** Reminders written (and their mails queued) per transaction. */
const BATCH_SIZE = 100;
/** A bound on one run, should something keep the batches full: the next run goes on. */
const MAX_BATCHES = 100;

type SentRow = {
  license_id: string;
  organization_id: string;
  organization_name: string;
  license_type: LicenseType;
  max_users: number | string;
  expire_at: string;
  days_before: number;
  source_organization_name: string | null;
  owner_email: string | null;
  owner_name: string | null;
  owner_organization_name: string | null;
  invoice_email: string | null;
};

export interface ReminderRun {
  /** Reminders this run recorded (licence, expiry and threshold), each once whatever the processes. */
  reminders: number;
  /** Mails queued for them. */
  mails: number;
}

/**
 * Sends the expiry reminders that are due (decision 009, "Expiry reminders"): for every licence that expires
 * within 30 days and has not expired, the reminder of the smallest threshold it has crossed (7 days when it
 * expires within 7, else 30), unless that one was sent for this expiry already.
 *
 * Each batch is one transaction: it inserts the reminder rows `on conflict do nothing` and queues the mails of
 * the rows it inserted only, in the same transaction. So a reminder goes once whatever the number of
 * processes running this at the same moment (the second insert waits for the first and then inserts nothing)
 * and whatever the restarts (a batch that did not commit recorded nothing and queued nothing). The key holds
 * the expiry: a licence extended (a new `expire_at`) gets its reminders again before its new expiry.
 */
export async function sendDueExpiryReminders(
  db: Db,
  settings: MailSettings,
  now: Date = new Date(),
): Promise<ReminderRun> {
  const run: ReminderRun = { reminders: 0, mails: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const { considered, reminders, mails } = await writeTransaction(db, (tx) =>
      remindBatch(tx, settings, now),
    );
    run.reminders += reminders;
    run.mails += mails;
    // A batch that found fewer due licences than it could take was the last one.
    if (considered < BATCH_SIZE) break;
  }
  return run;
}

async function remindBatch(tx: Tx, settings: MailSettings, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = await rows<{ considered: number | string; sent: SentRow[] | null }>(
    tx,
    sql`with due as (
        select l.id, l.organization_id, o.name as organization_name, l.license_type, l.max_users, l.expire_at,
          l.source_license_id, t.days_before
        from licenses l
        join organizations o on o.id = l.organization_id and o.deleted_at is null
        cross join lateral (
          select case when l.expire_at <= ${at} + ${LAST_REMINDER_DAYS}::int * interval '1 day'
            then ${LAST_REMINDER_DAYS}::int else ${FIRST_REMINDER_DAYS}::int end as days_before) t
        where l.expire_at > ${at} and l.expire_at <= ${at} + ${FIRST_REMINDER_DAYS}::int * interval '1 day'
          -- a handed-down licence holding no seat leaves nobody without access when it expires
          and (l.source_license_id is null or l.max_users > 0)
          and not exists (select 1 from license_expiry_reminders r
            where r.license_id = l.id and r.expire_at = l.expire_at and r.days_before = t.days_before)
        order by l.expire_at, l.id
        limit ${BATCH_SIZE}
        -- a licence being changed right now (an extension) is left to the next run, which sees its new expiry
        for share of l skip locked
      ), sent as (
        insert into license_expiry_reminders (license_id, expire_at, days_before, sent_at)
        select id, expire_at, days_before, ${at} from due
        on conflict do nothing
        returning license_id, expire_at, days_before
      )
      select (select count(*) from due) as considered,
        (select json_agg(x) from (
          select d.id as license_id, d.organization_id, d.organization_name, d.license_type, d.max_users,
            d.expire_at, d.days_before, so.name as source_organization_name,
            owner.email as owner_email, owner.name as owner_name, owner.organization_name as owner_organization_name,
            invoice.customer_email as invoice_email
          from sent s
          join due d on d.id = s.license_id
          left join licenses sl on sl.id = d.source_license_id
          left join organizations so on so.id = sl.organization_id
          -- the owner: of the licence's organization, else (a licence of its own) the nearest one above
          left join lateral (
            select u.email, u.name, ao.name as organization_name
            from organization_closure c
            join organizations ao on ao.id = c.ancestor_id
            join memberships m on m.organization_id = c.ancestor_id and m.role = 'organization_owner'
            join users u on u.id = m.user_id
            where c.descendant_id = d.organization_id and (d.source_license_id is null or c.depth = 0)
            order by c.depth limit 1
          ) owner on true
          -- the customer of the organization's latest invoice that was not voided (a licence of its own only)
          left join lateral (
            select i.customer_email from invoices i
            where i.organization_id = d.organization_id and i.status <> 'void' and d.source_license_id is null
            order by i.created_at desc, i.id desc limit 1
          ) invoice on true
        ) x) as sent`,
  );
  let mails = 0;
  const sent = row?.sent ?? [];
  for (const reminder of sent) {
    for (const recipient of recipientsOf(reminder)) {
      await queueMail(tx, expiryReminderMail(toLicence(reminder), recipient, settings, now));
      mails++;
    }
  }
  return { considered: Number(row?.considered ?? 0), reminders: sent.length, mails };
}

function toLicence(r: SentRow): ExpiringLicence {
  return {
    licenseType: r.license_type,
    organizationId: r.organization_id,
    organizationName: r.organization_name,
    seats: Number(r.max_users),
    expireAt: new Date(r.expire_at).toISOString(),
    sourceOrganizationName: r.source_organization_name,
  };
}

/** The owner, and the latest invoice's customer when that is another address (compared case-insensitively). */
function recipientsOf(r: SentRow): ReminderRecipient[] {
  const recipients: ReminderRecipient[] = [];
  if (r.owner_email) {
    recipients.push({
      to: r.owner_email,
      name: r.owner_name,
      reason: { kind: 'owner', organizationName: r.owner_organization_name ?? r.organization_name },
    });
  }
  if (r.invoice_email && r.invoice_email.toLowerCase() !== r.owner_email?.toLowerCase()) {
    recipients.push({ to: r.invoice_email, name: null, reason: { kind: 'invoice' } });
  }
  return recipients;
}
