import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { jsonParam } from '../../db/json-params';
import { rows } from '../../db/rows';

export interface Mail {
  /** What the mail is for (password_reset, invitation, verification): logs and tests. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface OutboxMail extends Mail {
  id: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

export interface MailTransport {
  /** What a handled row becomes: `sent` through SMTP, `logged` when printed to the log (no SMTP_URL). */
  readonly delivers: 'sent' | 'logged';
  send(mail: OutboxMail): Promise<void>;
  close(): void;
}

/** Failed attempt n waits 10 s · 2^(n-1), at most 10 minutes; a mail is never given up. */
export const RETRY_BASE_MS = 10_000;
export const RETRY_CAP_MS = 10 * 60_000;
/** A claimed row is hidden from other workers this long; a worker that died mid-send is retried after it. */
export const CLAIM_LEASE_MS = 2 * 60_000;
const BATCH_SIZE = 20;

export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), RETRY_CAP_MS);
}

/** Queues a mail in the caller's transaction: it goes out only if the change that caused it commits. */
export async function queueMail(tx: Tx, mail: Mail): Promise<string> {
  const [row] = await rows<{ id: string }>(
    tx,
    sql`insert into mail_outbox (kind, to_address, subject, text_body, html_body)
        values (${mail.kind}, ${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html}) returning id`,
  );
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/** Queues many mails with one statement per chunk (imports): the same guarantee as queueMail. */
export async function queueMails(tx: Tx, mails: readonly Mail[]): Promise<void> {
  // Chunks keep one statement's JSON to a few MB.
  for (let start = 0; start < mails.length; start += 500) {
    const chunk = mails.slice(start, start + 500).map((m) => ({
      kind: m.kind,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
    }));
    await tx.execute(sql`insert into mail_outbox (kind, to_address, subject, text_body, html_body)
      select kind, "to", subject, text, html
      from json_to_recordset(${jsonParam(chunk)})
        as x(kind text, "to" text, subject text, text text, html text)`);
  }
}

export interface ProcessOutboxOptions {
  /** Delay before the next attempt after `attempts` failed ones (tests make it short). */
  retryDelay?: (attempts: number) => number;
  leaseMs?: number;
  batchSize?: number;
  onError?: (mail: OutboxMail, error: unknown) => void;
  /** Aborted when the process stops: mail claimed but not tried yet goes back to the queue. */
  signal?: AbortSignal;
}

/**
 * Sends every due mail once: claims a batch (FOR UPDATE SKIP LOCKED, so several processes share the
 * queue without sending a row twice), sends each outside any transaction, then marks it handled or
 * schedules its next attempt. Returns how many were handled and how many failed.
 */
export async function processOutbox(
  db: Db,
  transport: MailTransport,
  options: ProcessOutboxOptions = {},
): Promise<{ delivered: number; failed: number }> {
  const { retryDelay = retryDelayMs, leaseMs = CLAIM_LEASE_MS, batchSize = BATCH_SIZE, onError } = options;
  let delivered = 0;
  let failed = 0;
  for (;;) {
    const claimedAt = Date.now();
    const batch = await claimDueMail(db, batchSize, leaseMs);
    let failure: string | null = null;
    for (const [index, mail] of batch.entries()) {
      // Stopping, or so slow that the lease could run out and another worker take the rest: give it back.
      if (options.signal?.aborted || Date.now() - claimedAt > leaseMs / 2) {
        await releaseClaims(db, batch.slice(index));
        return { delivered, failed };
      }
      if (failure === null) {
        try {
          await transport.send(mail);
          await db.execute(sql`update mail_outbox set status = ${transport.delivers}, sent_at = now(),
            last_error = null where id = ${mail.id}`);
          delivered += 1;
          continue;
        } catch (error) {
          onError?.(mail, error);
          failure = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
        }
      }
      // After one failure the rest of the batch is not tried: the server is most likely down.
      failed += 1;
      await db.execute(sql`update mail_outbox
        set next_attempt_at = now() + make_interval(secs => ${retryDelay(mail.attempts) / 1000}),
            last_error = ${failure}
        where id = ${mail.id} and status = 'pending'`);
    }
    // A short batch emptied the queue; a failure means the transport is down: wait for the next round.
    if (batch.length < batchSize || failure !== null) return { delivered, failed };
  }
}

/** Claimed rows that were not tried: due again now, and the claim does not count as an attempt. */
async function releaseClaims(db: Db, mails: OutboxMail[]): Promise<void> {
  if (mails.length === 0) return;
  await db.execute(sql`update mail_outbox set next_attempt_at = now(), attempts = attempts - 1
    where status = 'pending' and id in (${sql.join(
      mails.map((m) => sql`${m.id}::uuid`),
      sql`, `,
    )})`);
}

async function claimDueMail(db: Db, batchSize: number, leaseMs: number): Promise<OutboxMail[]> {
  // Most polls find nothing: a plain read (an eighth of the claim's cost on PGlite) answers those.
  const due = await rows(
    db,
    sql`select 1 from mail_outbox where status = 'pending' and next_attempt_at <= now() limit 1`,
  );
  if (due.length === 0) return [];
  const claimed = await rows<{
    id: string;
    kind: string;
    to_address: string;
    subject: string;
    text_body: string;
    html_body: string;
    attempts: number;
  }>(
    db,
    sql`update mail_outbox set attempts = attempts + 1,
          next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
        where id in (
          select id from mail_outbox where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at, created_at limit ${batchSize}
          for update skip locked)
        returning id, kind, to_address, subject, text_body, html_body, attempts`,
  );
  return claimed.map((r) => ({
    id: r.id,
    kind: r.kind,
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    attempts: Number(r.attempts),
  }));
}
