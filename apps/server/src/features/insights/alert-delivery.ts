import type { CreditAlertThreshold } from '@allot/domain/insights';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { rows } from '../../db/rows';
import { writeTransaction } from '../../db/transaction';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';
import { type MailSettings, queueMails } from '../mail';
import { type AlertRecipient, lowBalanceMail } from './alert-mail';

/** Events turned into mails per transaction. */
const BATCH_SIZE = 50;
/** A bound on one run: the next run goes on. */
const MAX_BATCHES = 20;

type EventRow = {
  id: string;
  organization_id: string;
  organization_name: string | null;
  threshold: CreditAlertThreshold;
  level: string | number;
  balance: string | number;
  reference: string | number | null;
  recipients: AlertRecipient[] | null;
};

/**
 * Turns crossed low-balance thresholds (`credit_alert_events`) into mails to the organization's owner and
 * admins, once each (decision 014, "Low-balance alerts"). Answers how many events it delivered.
 *
 * Each batch is one transaction: it claims events with `FOR UPDATE SKIP LOCKED`, queues their mails in the
 * outbox and deletes them. Several processes running this at once each take other events, and a batch
 * that does not commit queued nothing and leaves its events for the next run.
 */
export async function deliverCreditAlerts(db: Db, settings: MailSettings): Promise<number> {
  // Most runs find nothing: a plain read answers those without opening a write transaction.
  const waiting = await rows(db, sql`select 1 from credit_alert_events limit 1`);
  if (waiting.length === 0) return 0;
  let delivered = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const count = await writeTransaction(db, (tx) => deliverBatch(tx, settings));
    delivered += count;
    if (count < BATCH_SIZE) break;
  }
  return delivered;
}

async function deliverBatch(tx: Tx, settings: MailSettings): Promise<number> {
  const events = await rows<EventRow>(
    tx,
    sql`with claimed as (
          select e.id, e.organization_id, e.threshold, e.level, e.balance, e.created_at from credit_alert_events e
          order by e.created_at, e.id limit ${BATCH_SIZE}
          for update skip locked)
        select c.id, c.organization_id, o.name as organization_name, c.threshold, c.level, c.balance,
          s.reference_balance as reference,
          -- the owner and admins who are members now (not invitations) with an address they confirmed
          (select json_agg(json_build_object('email', u.email, 'name', u.name, 'role', m.role)
                    order by m.role desc, u.email)
             from memberships m join users u on u.id = m.user_id
             where m.organization_id = c.organization_id and o.deleted_at is null
               and m.role in ${MANAGING_ROLES_SQL}
               and u.email_verified_at is not null) as recipients
        from claimed c
        left join organizations o on o.id = c.organization_id
        left join credit_alert_settings s on s.organization_id = c.organization_id
        order by c.created_at, c.id`,
  );
  if (events.length === 0) return 0;
  const mails = events.flatMap((event) =>
    (event.recipients ?? []).map((recipient) =>
      lowBalanceMail(
        {
          organizationId: event.organization_id,
          organizationName: event.organization_name ?? '',
          threshold: event.threshold,
          level: Number(event.level),
          balance: Number(event.balance),
          referenceBalance: event.reference === null ? null : Number(event.reference),
        },
        recipient,
        settings,
      ),
    ),
  );
  await queueMails(tx, mails);
  await tx.execute(sql`delete from credit_alert_events
    where id in ${uuidsIn(events.map((e) => e.id))}`);
  return events.length;
}
