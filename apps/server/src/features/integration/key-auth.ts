import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { preparedRows } from '../../db/prepared-rows';
import type { IntegrationCaller } from '../../http/authenticate';

/** How often a key's `lastUsedAt` is written: not on every call (a hot row under load), at most once a minute. */
const TOUCH_AFTER_SECONDS = 60;

export function hashIntegrationKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * The live key of a bearer token, or null: unknown, revoked, or of a deleted organization. Read from the
 * database on every request, so a revocation holds at once on every server process (CONTRACT §9).
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
