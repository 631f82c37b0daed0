import { createHash } from 'node:crypto';
import { INTEGRATION_MSG } from '@allot/domain/integration';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import { AppError } from '../../http/app-error';
import type { IntegrationCaller } from '../../http/authenticate';

/** How often a key's `lastUsedAt` is written: not on every call (a hot row under load), at most once a minute. */
const TOUCH_AFTER_SECONDS = 60;

export function hashIntegrationKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * The live key of a bearer token, or null: unknown, revoked, or of a deleted organization, read from the
 * database (`liveKeyLookup` keeps a copy for a second).
 */
export async function findIntegrationKey(db: Tx, token: string): Promise<IntegrationCaller | null> {
  const stale = sql`(k.last_used_at is null or k.last_used_at < now() - make_interval(secs => ${TOUCH_AFTER_SECONDS}))`;
  const [row] = await preparedRows<{ id: string; organization_id: string; stale: boolean }>(
    db,
    sql`select k.id, k.organization_id, ${stale} as stale
        from integration_keys k join organizations o on o.id = k.organization_id
        where k.key_hash = ${hashIntegrationKey(token)} and k.revoked_at is null and o.deleted_at is null`,
  );
  if (!row) return null;
  // Asked again in the update: of the calls (of every process) that found the key stale at once, only the
  // first writes; the others find it touched once its lock is released, and write nothing.
  if (row.stale) {
    await db.execute(
      sql`update integration_keys k set last_used_at = now() where k.id = ${row.id} and ${stale}`,
    );
  }
  return { keyId: row.id, organizationId: row.organization_id };
}

/** How long a process answers a key from its own copy: a second (decision 016). */
export const KEY_COPY_MS = 1000;

/**
 * `findIntegrationKey` with a copy of each live key kept for a second, for the authentication hook: under
 * the classroom product's load a key is read once a second per process, not once a call, so an entitlement
 * check is one statement. A copy is never the last word: the call's own statement reads the people of the
 * key's subtree only while the key is live (`findPlacesOfEach`'s `liveKey`), and any other answer of a call
 * answered from a copy asks the database again first (`keyStillLive`): a revoked key is refused at once, on
 * every process, as CONTRACT §9 says. Unknown and revoked tokens are never kept.
 */
export function liveKeyLookup(db: Tx): (token: string) => Promise<IntegrationCaller | null> {
  const copies = new Map<string, { caller: IntegrationCaller; until: number }>();
  // Calls that arrive together when the copy has run out share one read: one statement, not one each.
  const reading = new Map<string, Promise<IntegrationCaller | null>>();
  const read = (hash: string, token: string) => {
    let pending = reading.get(hash);
    if (!pending) {
      const started = performance.now();
      pending = findIntegrationKey(db, token)
        .then((caller) => {
          if (caller) copies.set(hash, { caller, until: started + KEY_COPY_MS });
          else copies.delete(hash);
          return caller;
        })
        .finally(() => reading.delete(hash));
      reading.set(hash, pending);
    }
    return pending;
  };
  return async (token) => {
    const hash = hashIntegrationKey(token);
    const copy = copies.get(hash);
    if (copy && copy.until > performance.now()) return { ...copy.caller, confirmed: false };
    const caller = await read(hash, token);
    return caller ? { ...caller, confirmed: true } : null;
  };
}

/** Whether the key is still live (not revoked, its organization not deleted), read now. */
export async function keyStillLive(db: Tx, keyId: string): Promise<boolean> {
  const [row] = await preparedRows<{ live: boolean }>(db, sql`select ${liveKeySql(keyId)} as live`);
  return row?.live === true;
}

/** SQL: the key is live now (the condition of `findIntegrationKey`, by id). */
export function liveKeySql(keyId: string) {
  return sql`exists (select 1 from integration_keys k join organizations o on o.id = k.organization_id
    where k.id = ${keyId} and k.revoked_at is null and o.deleted_at is null)`;
}

/**
 * A call found nobody, or is refused before its statement ran: `401` if the key was revoked meanwhile (the
 * answer of a revoked key, whatever else the call got wrong), else nothing.
 */
export async function refuseUnlessKeyLive(db: Tx, caller: IntegrationCaller): Promise<void> {
  if (!(await keyStillLive(db, caller.keyId))) throw AppError.unauthorized(INTEGRATION_MSG.keyRevoked);
}
