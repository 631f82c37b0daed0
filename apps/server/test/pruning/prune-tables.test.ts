import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/db/rows';
import { PRUNE_BATCH, pruneTables } from '../../src/features/pruning/prune-tables';
import { openTestDatabase, type TestDatabase } from '../support/test-database';

/** Issue 35: sessions, rate-limit windows, sent mail and idempotency keys do not pile up for ever. */
let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const OLD_WINDOWS = PRUNE_BATCH * 2 + 500;

async function seed() {
  const db = database.db;
  const [user] = await rows<{ id: string }>(
    db,
    sql`insert into users (email, name) values ('pruned-sessions@prune.test', 'Pat Prune') returning id`,
  );
  const userId = user?.id as string;
  await db.execute(sql`insert into sessions (token_hash, user_id, expires_at, last_seen_at) values
    ('prune-old', ${userId}, now() - interval '2 days', now() - interval '9 days'),
    ('prune-recently-expired', ${userId}, now() - interval '1 hour', now() - interval '7 days'),
    ('prune-live', ${userId}, now() + interval '7 days', now())`);
  await db.execute(sql`insert into rate_limits (key, window_started_at, count)
    select 'prune:old:' || n, now() - interval '3 days', 1 from generate_series(1, ${OLD_WINDOWS}) n`);
  await db.execute(sql`insert into rate_limits (key, window_started_at, count) values
    ('prune:today', now() - interval '20 hours', 3)`);
  await db.execute(sql`insert into mail_outbox (kind, to_address, subject, text_body, html_body, status, sent_at, created_at) values
    ('invitation', 'sent-long-ago@prune.test', 'Old', 'x', 'x', 'sent', now() - interval '31 days', now() - interval '31 days'),
    ('invitation', 'sent-lately@prune.test', 'Recent', 'x', 'x', 'logged', now() - interval '29 days', now() - interval '29 days'),
    ('invitation', 'never-sent@prune.test', 'Waiting', 'x', 'x', 'pending', null, now() - interval '40 days')`);
  await db.execute(sql`insert into idempotency_keys (caller_id, key, request_hash, status, response, created_at) values
    (${userId}, 'prune-expired', 'h', 200, '{}', now() - interval '25 hours'),
    (${userId}, 'prune-answering', 'h', 200, '{}', now() - interval '23 hours')`);
  return userId;
}

describe('pruning', () => {
  it('deletes what has had its time, in batches, once, however many processes prune at once', async () => {
    const userId = await seed();
    // Two processes' jobs at the same moment (on PostgreSQL they run side by side; PGlite takes them in turn).
    const [first, second] = await Promise.all([pruneTables(database.db), pruneTables(database.db)]);
    const total = (table: string) => (first?.[table] ?? 0) + (second?.[table] ?? 0);
    expect(total('sessions')).toBe(1);
    expect(total('rate_limits')).toBe(OLD_WINDOWS);
    expect(total('mail_outbox')).toBe(1);
    expect(total('idempotency_keys')).toBe(1);

    const left = async (query: ReturnType<typeof sql>) =>
      (await rows<{ v: string }>(database.db, query)).map((r) => r.v);
    expect(
      await left(sql`select token_hash as v from sessions where user_id = ${userId} order by 1`),
    ).toEqual(['prune-live', 'prune-recently-expired']);
    expect(await left(sql`select key as v from rate_limits where key like 'prune:%'`)).toEqual([
      'prune:today',
    ]);
    expect(
      await left(
        sql`select to_address as v from mail_outbox where to_address like '%@prune.test' order by 1`,
      ),
    ).toEqual(['never-sent@prune.test', 'sent-lately@prune.test']);
    expect(await left(sql`select key as v from idempotency_keys where caller_id = ${userId}`)).toEqual([
      'prune-answering',
    ]);

    // Nothing more to do: a second run deletes nothing.
    expect(Object.values(await pruneTables(database.db)).every((n) => n === 0)).toBe(true);
  });

  it('stops between batches when its process stops', async () => {
    await database.db.execute(sql`insert into rate_limits (key, window_started_at, count)
      select 'prune:stop:' || n, now() - interval '3 days', 1 from generate_series(1, 10) n`);
    const stopped = new AbortController();
    stopped.abort();
    expect(await pruneTables(database.db, stopped.signal)).toEqual({ sessions: 0 });
    const [kept] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from rate_limits where key like 'prune:stop:%'`,
    );
    expect(kept?.n).toBe(10);
  });
});
