import { sql } from 'drizzle-orm';
import type { Tx } from '../../src/db/client';
import { rows } from '../../src/db/rows';

export interface OutboxRow {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

/** The outbox rows to one address, oldest first. */
export function mailsTo(db: Tx, email: string): Promise<OutboxRow[]> {
  return rows<OutboxRow>(
    db,
    sql`select id, kind, to_address, subject, text_body, html_body, status, attempts, last_error
        from mail_outbox where lower(to_address) = lower(${email}) order by created_at, id`,
  );
}

/** The newest mail to an address; fails the test when there is none. */
export async function lastMailTo(db: Tx, email: string): Promise<OutboxRow> {
  const all = await mailsTo(db, email);
  const last = all.at(-1);
  if (!last) throw new Error(`no mail to ${email} in the outbox`);
  return last;
}

/** The 6-digit code of a mail's text. */
export function codeIn(text: string): string {
  const match = /code: (\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`no code in:\n${text}`);
  return match[1];
}

/** The first link of a mail's text. */
export function linkIn(text: string): URL {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`no link in:\n${text}`);
  return new URL(match[0]);
}

/** userId and token of a reset link /password/token/{userId}/{token}. */
export function resetLinkParts(text: string): { userId: string; token: string } {
  const [, password, tokenWord, userId, token] = linkIn(text).pathname.split('/');
  if (password !== 'password' || tokenWord !== 'token' || !userId || !token)
    throw new Error(`not a reset link: ${text}`);
  return { userId, token };
}
