import { and, eq, gt, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { sessions, users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { AuthUser, SessionInQuery, SessionStatement } from '../../http/authenticate';
import { MANAGING_ROLES_SQL } from '../../lib/managing-roles';
import { hashToken, newToken } from './tokens';

export const SESSION_DAYS = 7;
/** Sliding expiry is refreshed at most once a minute per session, not on every request (a write on a read). */
const TOUCH_AFTER_SECONDS = 60;
const staleSql = (lastSeenAt: SQL) =>
  sql`${lastSeenAt} < now() - make_interval(secs => ${TOUCH_AFTER_SECONDS})`;

/** How a session is opened: with the second factor or not, and its absolute lifetime (SESSION_MAX_DAYS). */
export interface NewSession {
  usedMfa: boolean;
  maxDays: number;
}

/**
 * A new session: it slides 7 days from its last use (`expires_at`) and ends `maxDays` after now whatever its
 * use (`ends_at`, CONTRACT §3); `used_mfa` says whether it proved the second factor (mfa-requirement.ts).
 */
export async function createSession(db: Tx, userId: string, opened: NewSession): Promise<string> {
  const token = newToken();
  const endsAt = sql`now() + make_interval(days => ${opened.maxDays})`;
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    endsAt,
    expiresAt: sql`least(now() + make_interval(days => ${SESSION_DAYS}), ${endsAt})`,
    usedMfa: opened.usedMfa,
  });
  return token;
}

/** The session lookup runs on every request: prepared once per database handle (named on PostgreSQL). */
const sessionLookups = new WeakMap<object, ReturnType<typeof prepareSessionLookup>>();
function prepareSessionLookup(db: Tx) {
  return db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      userId: users.id,
      email: users.email,
      name: users.name,
      isSystemAdmin: users.isSystemAdmin,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1)
    .prepare('find_session');
}

export async function findSession(db: Tx, token: string): Promise<AuthUser | null> {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash: hashToken(token) });
  if (!row) return null;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_AFTER_SECONDS * 1000)
    await touchSession(db, row.sessionId);
  const { lastSeenAt: _, ...user } = row;
  return user;
}

/**
 * The sliding expiry: last use now, 7 more days, never past the session's absolute end. Asked again in the
 * update: of the requests that found the session stale at once, only the first writes.
 */
async function touchSession(db: Tx, sessionId: string): Promise<void> {
  await db.execute(sql`update sessions
    set last_seen_at = now(), expires_at = least(now() + make_interval(days => ${SESSION_DAYS}), ends_at)
    where id = ${sessionId} and ${staleSql(sql`last_seen_at`)}`);
}

/** A live session as `sessionOfTokenSql` selects it. */
export interface SessionRow {
  session_id: string;
  user_id: string;
  email: string;
  name: string;
  is_system_admin: boolean;
  stale: boolean;
}

/**
 * The live session of a token with its account, as a relation of at most one row (`SessionRow`'s columns),
 * for a read that looks up its caller in its own query (`sessionInQuery`, http/authenticate.ts): the same
 * rules as `findSession` (not revoked, not expired). `tokenHash`: `hashToken` of the token, as a parameter.
 */
export function sessionOfTokenSql(tokenHash: SQL): SQL {
  return sql`select s.id as session_id, u.id as user_id, u.email, u.name, u.is_system_admin,
      ${staleSql(sql`s.last_seen_at`)} as stale
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.revoked_at is null and s.expires_at > now()`;
}

/**
 * The caller of a read that looked up its session (`sessionOfTokenSql`): `401` when it found none; the
 * session's last use written when it is a minute old, as `findSession` does.
 */
export async function signedInFrom(
  db: Tx,
  pending: SessionInQuery,
  row: SessionRow | null | undefined,
): Promise<AuthUser> {
  if (!row) throw AppError.unauthorized();
  if (row.stale) await touchSession(db, row.session_id);
  pending.user = {
    sessionId: row.session_id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    isSystemAdmin: row.is_system_admin,
  };
  return pending.user;
}

/** The session proved the second factor (it turned two-factor on with a code). */
export async function markSessionUsedMfa(db: Tx, sessionId: string): Promise<void> {
  await db.update(sessions).set({ usedMfa: true }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Tx, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

/** Ends every session of the user, but the one named in `except` (the caller's own). */
export async function revokeAllSessions(
  db: Tx,
  userId: string,
  options: { except?: string | undefined } = {},
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        options.except ? ne(sessions.id, options.except) : undefined,
      ),
    );
}

/**
 * CONTRACT §3: losing panel access ends the account's sessions. Called in the transaction that lowered a role
 * or ended memberships, after that change: every session of these accounts that now hold no owner or admin
 * role anywhere (and are no system admins) is revoked, so the next call with its token is `401`. Sign in takes
 * a share lock on the account's memberships while it opens a session (`openPanelSession`), so a sign-in that
 * read the old role either finishes before this runs (and its session is revoked here) or reads the new role.
 */
export async function endSessionsWithoutPanelAccess(tx: Tx, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.execute(sql`
    update sessions s set revoked_at = now()
    where s.user_id in ${uuidsIn([...new Set(userIds)])} and s.revoked_at is null
      and not exists (select 1 from users u where u.id = s.user_id and u.is_system_admin)
      and not exists (select 1 from memberships m where m.user_id = s.user_id
                      and m.role in ${MANAGING_ROLES_SQL})`);
}

/** A write's session as its transaction's first statement, sent with BEGIN (`sessionInQuery` writes). */
export const sessionStatement: SessionStatement = {
  statement: (token) => sessionOfTokenSql(sql`${hashToken(token)}`),
  settle: (tx, pending, found) => signedInFrom(tx, pending, found[0] as SessionRow | undefined),
};
