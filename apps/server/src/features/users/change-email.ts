import { CODE_MINUTES, type ConfirmEmailChangeRequest } from '@allot/domain/auth';
import { APP_MSG } from '@allot/domain/messages';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows } from '../../db/rows';
import { AppError } from '../../http/app-error';
import type { AuthUser } from '../../http/authenticate';
import { isUuid } from '../../lib/ids';
import {
  type CheckedCode,
  CODE_MAX_FAILURES,
  checkCode,
  emailAddressTakenMail,
  emailChangeCodeMail,
  emailChangeNoticeMail,
  issueCode,
  markVerified,
  redeemCode,
  revokeAllSessions,
} from '../auth';
import { type MailSettings, publicLink, queueMails } from '../mail';

const PURPOSE = 'email_change';

/**
 * The address an email change of this user (a uuid column) waits to be confirmed at, or null: the subject of
 * its live code. The code is the pending change: when it expires or is used, nothing is pending any more.
 */
export function pendingEmailSql(userId: SQL): SQL {
  return sql`(select c.subject from one_time_codes c
    where c.user_id = ${userId} and c.purpose = ${PURPOSE}
      and c.expires_at > now() and c.failed_attempts < ${CODE_MAX_FAILURES}
    order by c.created_at desc limit 1)`;
}

export async function pendingEmailOf(tx: Tx, userId: string): Promise<string | null> {
  const [row] = await rows<{ email: string | null }>(
    tx,
    sql`select ${pendingEmailSql(sql`${userId}::uuid`)} as email`,
  );
  return row?.email ?? null;
}

/**
 * Asks for an email change (CONTRACT §3), in the caller's transaction: a code to the new address (a link to
 * /email/confirm/{userId}/{token}) and a notice to the old one; the account keeps its address until the code
 * is entered. A new request replaces an earlier one. An address that already belongs to another account
 * gets no code, only a mail saying so: the caller cannot tell it from any other address (no enumeration),
 * and the change never applies.
 */
export async function requestEmailChange(
  tx: Tx,
  input: { userId: string; name: string; currentEmail: string; newEmail: string; requestedBy: AuthUser },
  settings: MailSettings,
): Promise<void> {
  const { code, token } = await issueCode(tx, {
    userId: input.userId,
    purpose: PURPOSE,
    lifetimeMinutes: CODE_MINUTES,
    withToken: true,
    subject: input.newEmail,
  });
  const taken = await rows(
    tx,
    sql`select 1 from users where lower(email) = ${input.newEmail.toLowerCase()} and id <> ${input.userId}`,
  );
  const self = input.requestedBy.userId === input.userId;
  await queueMails(tx, [
    taken.length > 0
      ? emailAddressTakenMail({ to: input.newEmail })
      : emailChangeCodeMail({
          to: input.newEmail,
          name: input.name,
          code,
          link: publicLink(settings, `/email/confirm/${input.userId}/${token}`),
        }),
    emailChangeNoticeMail({
      to: input.currentEmail,
      name: input.name,
      newEmail: input.newEmail,
      requestedBy: self ? 'You' : `${input.requestedBy.name} (${input.requestedBy.email})`,
    }),
  ]);
}

const notConfirmed = () => AppError.of('invalid_code', APP_MSG.emailChangeNotConfirmed);

/** The code of an email change, counted and checked (a password hashed), before the transaction. */
export async function checkEmailChangeCode(
  db: Db,
  input: ConfirmEmailChangeRequest,
  ip: string,
): Promise<CheckedCode> {
  const userId = isUuid(input.userId) ? input.userId.toLowerCase() : null;
  const [account] = userId
    ? await rows<{ has_password: boolean }>(
        db,
        sql`select password_hash is not null as has_password from users where id = ${userId}`,
      )
    : [];
  return checkCode(db, {
    purpose: PURPOSE,
    account: input.userId,
    ip,
    userId: account ? userId : null,
    code: input.code,
    token: input.token,
    needsPassword: account?.has_password === false,
    ...(input.password === undefined ? {} : { password: input.password }),
    refused: notConfirmed,
  });
}

/**
 * POST /api/auth/email/confirm: the code from the new address makes it the account's email, verified; every
 * other session of the account ends (the caller's own stays, when the account confirms signed in), and the
 * codes mailed to the old address stop working. An account without a password sets one here. The address
 * taken meanwhile: `409`, nothing changes.
 */
export async function confirmEmailChange(
  tx: Tx,
  checked: CheckedCode,
  caller: AuthUser | null,
): Promise<{ success: true; email: string }> {
  return redeemCode(tx, checked, async (tx, { userId: id, subject, passwordHash }) => {
    if (!subject) throw notConfirmed();
    const taken = await rows(
      tx,
      sql`select 1 from users where lower(email) = ${subject.toLowerCase()} and id <> ${id}`,
    );
    if (taken.length > 0) throw AppError.emailTaken();
    await tx.execute(sql`update users set email = ${subject}, updated_at = now() where id = ${id}`);
    await markVerified(tx, id, passwordHash);
    await tx.execute(sql`delete from one_time_codes where user_id = ${id}
      and purpose in ('password_reset', 'email_verification', 'email_change')`);
    await revokeAllSessions(tx, id, { except: caller?.userId === id ? caller.sessionId : undefined });
    return { success: true as const, email: subject };
  });
}
