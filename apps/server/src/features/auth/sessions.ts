import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { uuidsIn } from '../../db/json-params';
import { sessions, users } from '../../db/schema';
import type { AuthUser } from '../../http/authenticate';
import { hashToken, newToken } from './tokens';

export const SESSION_DAYS = 7;
/** Sliding expiry is refreshed at most once a minute per session, not on every request. */
const TOUCH_AFTER_MS = 60_000;

export async function createSession(db: Tx, userId: string): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: sql`now() + make_interval(days => ${SESSION_DAYS})`,
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
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()`, expiresAt: sql`now() + make_interval(days => ${SESSION_DAYS})` })
      .where(eq(sessions.id, row.sessionId));
  }
  const { lastSeenAt: _, ...user } = row;
  return user;
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
                      and m.role in ('organization_owner', 'organization_admin'))`);
}
